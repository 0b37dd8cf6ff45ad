#!/usr/bin/python3
"""The screen reader's own words: Orca 43 runs on the window and every action is
judged by what Orca SAID (its speech, logged by build/a11y/orca-customizations.py),
not by which AT-SPI events were sent.

Run by build/a11y/session.sh inside the tier's private session bus, with the
window open on the Russian War and Peace ($BOOK), in Russian (Settings →
language, as a Russian author has it: its controls are named in Russian), and
no Orca yet. It

  1. types into the command field and the text without Orca (the reference of
     this run, on this machine, at this moment);
  2. starts Orca (waiting for another Orca of this user to end: only one runs
     per user; it is never stopped here) with a throw-away preferences folder;
  3. runs each action an author does and checks Orca's speech: every result,
     count, error and state change said by itself, once and in full (not cut
     off by Orca before it could be heard), the place the author lands on, the
     edit to review described in words, no tool names or internal pointers,
     and every sentence of the window's own (a search, the find bar, the
     people) and about a Russian command in Russian (no English sentence);
  4. types again with Orca running (a command, and over 100 keys of Russian
     and of English into the text): no key may be late by more than KEY_LIMIT
     (150 ms at 150 ms a key) beyond what the same typing took without Orca.

Environment: WID (the X window), BOOK (the book it shows), WORK (a folder for
Orca's preferences and speech log), ORCA_WAIT (seconds to wait for another
Orca, default 600), ORCA_DEBUG (set: Orca's debug log in WORK too, or in
the file it names when it is an absolute path), SPEECH_PARTS (some of PARTS only),
OPENLOOP_N and OPENLOOP_EVENTS (the openloop part's rounds, and a file for the
window's focus and caret events meanwhile). Prints what Orca said for each action; exit status 0 when
every check passed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import latency  # noqa: E402
from xtest import Keyboard  # noqa: E402

WID = os.environ["WID"]
APP_PID = int(subprocess.run(["xdotool", "getwindowpid", WID], capture_output=True, text=True).stdout.strip() or 0)
BOOK = os.environ["BOOK"]
WORK = os.environ["WORK"]
ORCA = "/usr/bin/orca"
ORCA_WAIT = float(os.environ.get("ORCA_WAIT", "600"))
# SPEECH_PARTS: a comma-separated subset of PARTS to run (while working on one;
# the tier runs them all).
PARTS = ("open", "counts", "focusmode", "search", "command", "error", "replace", "workspaces", "outline",
         "findbar", "people", "latency")
# KNOWN: parts that measure what is not fixed yet, run only when SPEECH_PARTS
# names them (the tier leaves them out; docs/window.md): "emptyline", the text
# coming back with the caret on an empty line; "hints", empty fields whose
# placeholder Orca reads as their value.
KNOWN = ("emptyline", "hints")
# MEASURE: long measurements, also run only when SPEECH_PARTS names them:
# "openloop", the Open dialog's path field said at each of many Ctrl+O's
# (OPENLOOP_N rounds, default 24; 2 and 6 of 24 silent before showDialog in
# frontend/src/lib/manuscript/workspace.ts, 0 since).
MEASURE = ("openloop",)
ONLY = [x for x in os.environ.get("SPEECH_PARTS", "").split(",") if x]


def part(name):
    if name in KNOWN + MEASURE:
        return name in ONLY
    return not ONLY or name in ONLY


KEY_PACE = 0.150
KEY_LIMIT = 0.150
# What Orca's speech takes to say a text: espeak-ng's default rate is about 175
# words a minute, some 15 characters a second.
CHARS_PER_SECOND = 15.0

failures = []
kb = None


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def key(*keys):
    """Hotkeys through xdotool, in the Latin layout."""
    kb.latin()
    subprocess.run(["xdotool", "key", "--clearmodifiers"] + list(keys), check=True)


def type_text(text, pace=0.04):
    """Text through XTest, in the layout that has each letter."""
    kb.prepare(text)
    for ch in text:
        kb.type_char(ch)
        time.sleep(pace)


# --- Orca --------------------------------------------------------------------------


class Speech:
    """What Orca said: the JSON lines orca-customizations.py appends."""

    def __init__(self, path):
        self.path = path

    def all(self):
        out = []
        try:
            with open(self.path, encoding="utf-8") as f:
                for line in f:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
        except OSError:
            pass
        return out

    def said(self, since, until=None):
        return [e for e in self.all() if e["kind"] == "speak" and e["t"] >= since and (until is None or e["t"] < until)]

    def wait(self, since, pattern=None, seconds=15.0, quiet=1.2):
        """Waits until an utterance matching pattern came (if given) and then
        nothing was said for quiet seconds; returns what was said since."""
        end = time.time() + seconds
        seen = None
        while time.time() < end:
            es = self.said(since)
            if pattern is None or any(re.search(pattern, e["text"]) for e in es):
                if seen is None or len(es) != seen[0]:
                    seen = (len(es), time.time())
                elif time.time() - seen[1] >= quiet:
                    break
            time.sleep(0.1)
        return self.said(since)


def other_orcas():
    r = subprocess.run(["pgrep", "-u", str(os.getuid()), "-x", "orca"], capture_output=True, text=True)
    return [int(p) for p in r.stdout.split()]


def start_orca(log):
    """Starts Orca with a throw-away preferences folder holding the speech
    logger; None (with the reason printed) when another Orca of this user ran
    all along."""
    end = time.time() + ORCA_WAIT
    while other_orcas():
        if time.time() > end:
            print(f"SKIP the Orca checks: another Orca of this user (pid {other_orcas()}) ran for {ORCA_WAIT:.0f} s; "
                  "only one Orca runs per user, and this tier never stops one it did not start", flush=True)
            return None
        time.sleep(2)
    prefs = os.path.join(WORK, "orca")
    os.makedirs(prefs, exist_ok=True)
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "orca-customizations.py"), prefs)
    env = dict(os.environ, WAYMARK_ORCA_SPEECH=log)
    args = [ORCA, "-u", prefs]
    if os.environ.get("ORCA_DEBUG"):  # Orca's own debug log, to see why it said what it said
        d = os.environ["ORCA_DEBUG"]
        args += ["--debug-file", d if os.path.isabs(d) else os.path.join(WORK, "orca-debug.log")]
    p = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sp = Speech(log)
    end = time.time() + 60
    while time.time() < end and not any(e["text"] == "Screen reader on." for e in sp.said(0)):
        if p.poll() is not None:
            print(f"FAIL Orca exited at once (status {p.returncode})", flush=True)
            return None
        time.sleep(0.2)
    return p


# --- the window through AT-SPI ----------------------------------------------------


def find_app():
    d = Atspi.get_desktop(0)
    for i in range(d.get_child_count()):
        a = d.get_child_at_index(i)
        if a is not None and (a.get_name() or "").startswith("waymark"):
            return a
    return None


def walk(o, out):
    out.append(o)
    try:
        n = o.get_child_count()
    except Exception:
        return out
    for i in range(n):
        try:
            c = o.get_child_at_index(i)
        except Exception:
            c = None
        if c is not None:
            walk(c, out)
    return out


class Focus:
    """Where the focus is, from AT-SPI's focus events (as Orca learns it)."""

    def __init__(self):
        self.obj = None
        self.listener = Atspi.EventListener.new(self._on)
        self.listener.register("object:state-changed:focused")

    def _on(self, ev):
        if ev.detail1 == 1:
            self.obj = ev.source

    def role_name(self):
        try:
            return self.obj.get_role_name(), self.obj.get_name() or ""
        except Exception:
            return "", ""

    def wait(self, role, name, seconds=20):
        """Waits until the focus is on an object of role whose name matches."""
        def on():
            r, n = self.role_name()
            return r == role and re.search(name, n)
        return bool(latency.wait_for(on, seconds))

    def text(self):
        try:
            return (Atspi.Text.get_text(self.obj, 0, -1) or "").strip()
        except Exception:
            return ""


focus = None
speech_log = None  # what Orca says, once it runs


def type_into(role, name, text, clear=True, since=None):
    """Types text into the field the focus must be on (role, name), once it is
    there and Orca has said so (as an author waits to hear where they are: a
    letter typed while Orca still thinks the focus is on the page is a
    structural-navigation key to it), and waits until the field holds it."""
    if not focus.wait(role, name):
        r, n = focus.role_name()
        check(False, f"the focus reached no {role} /{name}/ to type into (it is on {r} {n!r})")
        return False
    if since is not None and speech_log is not None:
        label = re.sub(r"[\^$]", "", name)
        latency.wait_for(lambda: any(label in e["text"] for e in speech_log.said(since)), 15)
    if clear:
        key("ctrl+a", "BackSpace")
        latency.wait_for(lambda: focus.text() == "", 10)
    type_text(text)
    got = latency.wait_for(lambda: focus.text() == text, 60)
    if not got:
        check(False, f"typing into {role} /{name}/: it holds {focus.text()!r}, not {text!r}")
    return bool(got)


def find(role, name=None):
    app = find_app()
    if app is None:
        return None
    for o in walk(app, []):
        try:
            if o.get_role_name() == role and (name is None or re.search(name, o.get_name() or "")):
                return o
        except Exception:
            pass
    return None


# --- one action, judged by what Orca said --------------------------------------------

record = []  # (action, [what Orca said]) for the report


def said_text(es):
    return [e["text"] for e in es]


def cut_off(sp, e, until):
    """Whether Orca stopped speaking before it could have said e in full:
    speech is queued (Orca 43 interrupts only through speech.stop, on a key
    press or a new window), so e starts once what was queued before it is said."""
    es = sp.all()
    start = e["t"]
    t = 0.0
    for x in es:
        if x["t"] > e["t"]:
            break
        if x["kind"] == "stop":
            t = x["t"]
        elif x["kind"] in ("speak", "key", "char"):
            t = max(t, x["t"]) + len(x["text"]) / CHARS_PER_SECOND
    end = max(start, t)
    stops = [x for x in es if x["kind"] == "stop" and e["t"] < x["t"] < min(end, until)]
    return bool(stops)


def action(sp, name, do, want=(), never=(), seconds=20.0, quiet=1.5):
    """Runs do(); then each pattern of want must be said exactly once, in full,
    and no pattern of never said at all. Returns what was said."""
    t0 = time.time()
    do()
    es = sp.wait(t0, want[0] if want else None, seconds, quiet)
    texts = said_text(es)
    record.append((name, texts))
    print(f"  {name}: Orca said {texts}", flush=True)
    for w in want:
        hits = [e for e in es if re.search(w, e["text"])]
        check(len(hits) == 1, f"{name}: said /{w}/ once (heard {len(hits)} times)")
        if len(hits) >= 1:
            check(not cut_off(sp, hits[0], time.time()), f"{name}: /{w}/ not cut off before it was said in full")
    for n in never:
        bad = [t for t in texts if re.search(n, t)]
        check(not bad, f"{name}: nothing said matches /{n}/ ({bad[:2]})")
    return texts


# --- key latency --------------------------------------------------------------------

COMMAND_TEXT = "найди «Наташа» в саду"
# Over 100 keys in each language into the text (at 150 ms a key the stall of
# issue 33 came at the 28th key; the tier typed 23 then): several sentences,
# so typing groups end while keys keep coming (the window saves them at the
# pause after: a save while keys came held them up by seconds with Orca).
EDITOR_TEXTS = {
    "text": "Наташа вошла в комнату. Пьер стоял у окна и смотрел на улицу, где шёл снег. "
            "Она сказала ему, что завтра они поедут в Отрадное.",
    "English text": "Natasha came into the room. Pierre stood at the window and watched the snow fall. "
                    "She said that they would leave for Otradnoe tomorrow.",
}
TYPED = [("command", COMMAND_TEXT)] + list(EDITOR_TEXTS.items())
SLOW = 0.400  # a key later than this is reported (issue 33 counted them)


def type_latency(where, text):
    """Types text at KEY_PACE a key into the command field or at the end of the
    text; returns the latencies (seconds, None for a letter that never came)."""
    t = time.time()
    if where == "command":
        key("ctrl+shift+k")
        focus.wait("entry", r"^Команда")
    else:
        key("ctrl+shift+e")
        focus.wait("entry", r"^Текст рукописи$")
    if speech_log is not None:
        # Orca has taken in where the focus went (it speaks the field, or the place).
        latency.wait_for(lambda: speech_log.said(t), 15)
    if where == "command":
        key("ctrl+a", "BackSpace")
    else:
        key("ctrl+End", "Return", "Return")
    # The author pauses before typing: the window has saved what came before
    # (a pause of 2 s saves) and is quiet.
    latency.pump(3.0)
    cpu, every = latency.cpu_seconds(APP_PID), latency.cpu_seconds()
    lat, _ = latency.type_timed(kb, text, pace=KEY_PACE, settle=60)
    # What each key cost the window (its processes' CPU, the settling included),
    # and the rest of the machine (Orca, its speech, the X server, this tier).
    after, every_after = latency.cpu_seconds(APP_PID), latency.cpu_seconds()
    each = {k: (v - cpu.get(k, 0)) / len(text) for k, v in after.items()}
    latency.type_timed.cpu = sum(each.values())
    latency.type_timed.split = ", ".join(f"{k} {1000 * v:.0f}" for k, v in sorted(each.items(), key=lambda kv: -kv[1]) if v >= 0.001)
    rest = {k: (v - every.get(k, 0) - (after.get(k, 0) - cpu.get(k, 0))) / len(text) for k, v in every_after.items()}
    latency.type_timed.rest = ", ".join(f"{k} {1000 * v:.0f}" for k, v in sorted(rest.items(), key=lambda kv: -kv[1])[:6] if v >= 0.002)
    if where == "command":
        key("ctrl+a", "BackSpace")
    latency.pump(1.0)
    return lat


REF_CPU = {}  # where: the window's CPU a key without Orca (seconds)


def slow(lat):
    """How many keys came later than SLOW (or never)."""
    return sum(1 for x in lat if x is None or x > SLOW)


def worst(lat):
    got = [x for x in lat if x is not None]
    return max(got) if len(got) == len(lat) else float("inf")


# --- the run ------------------------------------------------------------------------


def main():
    global kb, focus
    Atspi.init()
    kb = Keyboard()
    focus = Focus()
    subprocess.run(["xdotool", "windowfocus", "--sync", WID], check=True)
    if not latency.wait_for(lambda: find("entry", r"^Текст рукописи$"), 60):
        print("FAIL the window's text is not in its accessibility tree")
        return 1

    # 1. The reference: the same typing without Orca.
    ref = {}
    for where, text in TYPED if part("latency") else ():
        ref[where] = type_latency(where, text)
        REF_CPU[where] = latency.type_timed.cpu
        print(f"without Orca, typing in the {where}: {latency.summary(ref[where], KEY_LIMIT)}, "
              f"{slow(ref[where])} over {1000 * SLOW:.0f} ms", flush=True)
        print("  ms a key: " + " ".join("-" if x is None else str(int(1000 * x)) for x in ref[where]), flush=True)
        print(f"  the window's CPU: {1000 * latency.type_timed.cpu:.0f} ms a key ({latency.type_timed.split}); meanwhile " + latency.type_timed.census, flush=True)

    # 2. Orca.
    log = os.path.join(WORK, "orca-speech.jsonl")
    orca = start_orca(log)
    if orca is None:
        return 1 if os.path.exists(log) else 0
    try:
        return run_with_orca(Speech(log), ref)
    finally:
        orca.terminate()
        try:
            orca.wait(10)
        except subprocess.TimeoutExpired:
            orca.kill()


def tab_to(sp, role, name, tabs=12, shift=False):
    """Tab (or Shift+Tab) until the focus is on role /name/; what Orca said on
    the way (each step recorded)."""
    heard = []
    for _ in range(tabs):
        # The focus events that came meanwhile (AT-SPI's are only read while pumped).
        latency.pump(0.3)
        if focus.role_name()[0] == role and re.search(name, focus.role_name()[1]):
            break
        # Each step waits until Orca said where the focus went (slow on a loaded machine).
        t0 = time.time()
        name_ = "Shift+Tab" if shift else "Tab"
        key("shift+Tab" if shift else "Tab")
        texts = said_text(sp.wait(t0, r".", 8, 1.0))
        record.append((name_, texts))
        print(f"  {name_}: Orca said {texts}", flush=True)
        heard += texts
    latency.pump(0.3)
    return heard


def open_path(path):
    """Ctrl+O, the path, Enter."""
    def do():
        t = time.time()
        key("ctrl+o")
        if type_into("entry", r"^Путь к файлу Markdown", path, since=t):
            key("Return")
    return do


def in_text(what):
    check(focus.wait("entry", r"^Текст рукописи$", 20), f"{what}: the focus is in the text ({focus.role_name()})")


def open_part(sp, book2, place):
    """Opening books: the English one, then the Russian one (never a word of
    the book before read out), the Open dialog left by Escape, and a path
    where no book is (the New dialog, its title field holding the name)."""
    english = os.path.join(WORK, "book.md")
    latin = r"[A-Za-z][A-Za-z ,.'’;:-]{40,}"  # a run of the English book's prose
    # The Open dialog's empty path field: its example is no value ("Путь к файлу
    # Markdown entry /home/you/novel.md." when it was the placeholder).
    as_value = r"^Путь к файлу Markdown entry \S"
    if os.path.exists(english):
        # The book's name and the place, and at most the line at the cursor as
        # the focus comes to the text: not the whole text on screen (Orca 43
        # read 821 characters of it when the cursor's line was empty).
        action(sp, "opening the English book", open_path(english), want=[r"^Открыта книга book\.md, "],
               never=[as_value, r"^Текст рукописи entry [^\n]*\n"], seconds=120)
        in_text("after opening the English book")
    # The book's name and the place; not a run of its prose.
    prose = r"(?:[А-Яа-яЁё«»,;:—-]+\s+){10,}"
    action(sp, "opening a book (Ctrl+O, a path, Enter)", open_path(book2),
           want=[r"^Открыта книга book2\.md, [\d,]+ МБ: [\d\s]+ сло(во|ва|в), \d+ заголов(ок|ка|ков)\. " + place + "$"],
           never=([latin] if os.path.exists(english) else []) + [prose, as_value], seconds=120)
    in_text("after opening a book")

    def escape_from(shortcut, field):
        def do():
            t = time.time()
            key(shortcut)
            focus.wait("entry", field)
            sp.wait(t, field.strip("^$"), 10, 0.8)
            key("Escape")
        return do
    # Back where the author was (the text), and the place said.
    # The empty path field said with its label, its example as a hint, not as
    # its value (was "Путь к файлу Markdown entry /home/you/novel.md.").
    heard = action(sp, "Escape from the Open dialog", escape_from("ctrl+o", r"^Путь к файлу Markdown"),
                   want=[r"^" + place + "$"], never=[as_value])
    check(any(re.match(r"^Путь к файлу Markdown entry\.?$", x) for x in heard),
          f"the Open dialog: its empty path field said with its label and nothing as its value ({heard})")
    in_text("Escape from the Open dialog")
    # A path where no book is: the New dialog, its title the file's name (not
    # its placeholder read as the value).
    missing = os.path.join(WORK, "nosuch-book.md")
    heard = action(sp, "a path where no book is (Ctrl+O, the path, Enter)", open_path(missing),
                   want=[r"Книги .*nosuch-book\.md ещё нет"], never=[r"Смотритель маяка", as_value], seconds=30)
    check(focus.wait("entry", r"^Название$", 10) and focus.text() == "nosuch-book",
          f"the New dialog: the focus on its title, holding the file's name ({focus.role_name()}, {focus.text()!r}; {heard})")
    action(sp, "Escape from the New dialog", lambda: key("Escape"), want=[r"^" + place + "$"], never=[r"Смотритель маяка"])
    in_text("Escape from the New dialog")


class EventLog:
    """The window's focus, caret and state events, each a JSON line with its
    time (OPENLOOP_EVENTS names the file): what Orca was told, beside what
    it said."""

    KINDS = ("object:state-changed:focused", "object:text-caret-moved", "object:text-changed",
             "object:state-changed:showing", "object:children-changed", "object:text-selection-changed")

    def __init__(self, path):
        self.f = open(path, "a", encoding="utf-8")
        self.listener = Atspi.EventListener.new(self._on)
        for k in self.KINDS:
            self.listener.register(k)

    def _on(self, ev):
        try:
            src = ev.source
            role, name = src.get_role_name(), (src.get_name() or "")[:60]
        except Exception:
            role, name = "gone", ""
        data = ev.any_data if isinstance(ev.any_data, (str, int)) else ""
        if isinstance(data, str):
            data = data[:40]
        self.f.write(json.dumps({"t": time.time(), "type": ev.type, "role": role, "name": name,
                                 "d1": ev.detail1, "d2": ev.detail2, "data": data}, ensure_ascii=False) + "\n")

    def mark(self, what):
        self.f.write(json.dumps({"t": time.time(), "mark": what}, ensure_ascii=False) + "\n")
        self.f.flush()


def open_loop_part(sp, book2):
    """Ctrl+O many times after the Russian book was opened by path: each
    time, whether Orca said the empty path field ("Путь к файлу Markdown
    entry."). Most rounds leave by Escape; every fourth opens a book by its
    path (the English one and the Russian one in turn, as the CI's silent
    run followed an open by path). Counts the silent ones (MEASURE: run
    when SPEECH_PARTS names it)."""
    rounds = int(os.environ.get("OPENLOOP_N", "24"))
    events = EventLog(os.environ["OPENLOOP_EVENTS"]) if os.environ.get("OPENLOOP_EVENTS") else None
    english = os.path.join(WORK, "book.md")
    field = r"^Путь к файлу Markdown entry\.?$"
    books = [english, book2] if os.path.exists(english) else [book2]
    action(sp, "opening the Russian book", open_path(book2), want=[r"^Открыта книга book2\.md, "], seconds=120)
    silent, said_at = [], []
    for i in range(1, rounds + 1):
        by_path = i % 4 == 0
        if events:
            events.mark(f"round {i} ctrl+o")
        t = time.time()
        key("ctrl+o")
        got_focus = focus.wait("entry", r"^Путь к файлу Markdown", 20)
        heard = said_text(sp.wait(t, field, 6, 0.8))
        ok = any(re.match(field, x) for x in heard)
        first = next((e["t"] - t for e in sp.said(t) if re.match(field, e["text"])), None)
        (said_at if ok else silent).append(i)
        print(f"  round {i} ({'by path' if by_path else 'Escape'}): {'said' if ok else 'SILENT'}"
              f"{f' after {1000 * first:.0f} ms' if first is not None else ''}, focus {got_focus}: {heard}", flush=True)
        if events:
            events.mark(f"round {i} {'said' if ok else 'SILENT'}")
        if by_path:
            book = books[(i // 4 - 1) % len(books)]
            if type_into("entry", r"^Путь к файлу Markdown", book):
                t = time.time()
                key("Return")
                sp.wait(t, r"^Открыта книга ", 120, 1.5)
        else:
            t = time.time()
            key("Escape")
            sp.wait(t, r"строка \d+", 15, 1.0)
        in_text(f"round {i}")
    print(f"openloop: the path field said {len(said_at)} of {rounds} times, silent {len(silent)} ({silent})", flush=True)
    check(not silent, f"openloop: the Open dialog's path field said at every Ctrl+O ({len(silent)} of {rounds} silent: {silent})")


def caret_line():
    """The line of the text at its caret, as AT-SPI gives it to Orca (its
    newline left out)."""
    o = focus.obj
    try:
        at = Atspi.Text.get_caret_offset(o)
        line = Atspi.Text.get_string_at_offset(o, at, Atspi.TextGranularity.LINE).content or ""
    except Exception:
        return None
    return line.replace("\n", "")


def to_empty_line(what):
    """Moves the caret in the text down to the next empty line (at most 40
    lines); when it is on one, when the last Down was pressed (0: none was),
    else None."""
    key("ctrl+shift+e")
    in_text(what)
    down = 0.0
    for _ in range(40):
        if latency.wait_for(lambda: caret_line() == "", 0.5):
            return down
        down = time.time()
        key("Down")
    return None


# Beyond the place, Orca may say the field and the empty line: never the text
# on screen (Orca 43's WebKitGTK script read it all, hundreds of characters,
# when the line at the caret was empty).
EMPTY_LINE_EXTRA = 80


def empty_line_part(sp, book, label):
    """Back in the text with its caret on an empty line (Alt+1 from Settings,
    Escape from the find bar): the place said, and no more than
    EMPTY_LINE_EXTRA characters besides it, each 3 times. KNOWN, not fixed:
    Escape from the find bar reads the text on screen (1,101 characters of the
    Russian book, 780 of the English, 3 of 3 each), and so does Down onto the
    empty line; Alt+1 too after other parts ran (1,149 and 827), the place alone when
    run first (Orca drops the focus event: its caret context is the text)."""
    # (Before a book's first heading: «Строка 3, до первого заголовка.».)
    place = r"[Сс]трока \d+(, до первого заголовка)?\.$"
    if book:
        action(sp, f"opening the {label} book", open_path(book), want=[r"^Открыта книга "], seconds=120)
    for i in (1, 2, 3):
        down = to_empty_line(f"the {label} book, an empty line")
        if down is None:
            check(False, f"the {label} book: no empty line within 40 lines of the caret")
            return
        sp.wait(time.time(), None, 6, 1.5)  # what the moves said is over
        if down:
            # Down onto the empty line: at most "blank", not the text on screen.
            heard = said_text(sp.said(down))
            check(sum(len(x) for x in heard) <= EMPTY_LINE_EXTRA,
                  f"Down onto an empty line ({label} book, {i} of 3): {sum(len(x) for x in heard)} characters said "
                  f"({[x[:60] for x in heard]})")
        back_at = [0.0]  # when the key that comes back to the text was pressed

        def alt1():
            t = time.time()
            key("alt+3")
            focus.wait("entry", r"^Адрес сервера")
            sp.wait(t, r"Настройки", 10, 1.0)
            back_at[0] = time.time()
            key("alt+1")

        def find_escape():
            t = time.time()
            key("ctrl+f")
            focus.wait("entry", r"^Найти$")
            sp.wait(t, r"^Найти", 10, 0.8)
            back_at[0] = time.time()
            key("Escape")
        for name, do in ((f"Alt+1 on an empty line ({label} book, {i} of 3)", alt1),
                         (f"Escape from the find bar on an empty line ({label} book, {i} of 3)", find_escape)):
            action(sp, name, do, want=[place], seconds=20)
            in_text(name)
            check(caret_line() == "", f"{name}: the caret is still on the empty line ({caret_line()!r})")
            # What was said once the key that came back to the text was pressed.
            back = said_text(sp.said(back_at[0]))
            extra = sum(len(x) for x in back if not re.search(place, x))
            check(extra <= EMPTY_LINE_EXTRA,
                  f"{name}: {extra} characters said beyond the place, at most {EMPTY_LINE_EXTRA} ({back})")


def field_said(sp, name, label, do):
    """An empty field reached by do(): Orca says its label and nothing as its
    value, then its example (its description) once, never as the value (a
    placeholder was read as an empty field's value: "Команда с номером или
    цель entry открой example.org · список …")."""
    heard = action(sp, name, do, want=[r"^" + label + r" entry\.?$", r"^Например: "], never=[label + r" entry \S"])
    check(focus.wait("entry", "^" + label + "$", 10) and focus.text() == "",
          f"{name}: the focus is in the empty field ({focus.role_name()}, {focus.text()!r}; {heard})")


def hints_part(sp):
    """The command, search, target-set name, New dialog's title and path,
    Settings' model and the Browser's command field, each reached empty (run
    first, in the window as it opened: no field has been typed into). KNOWN,
    not fixed: each reads its placeholder as its value (19 checks fail, 4 of 4
    runs). With the examples as hints under the fields (aria-describedby, no
    placeholders) all passed, but the web view's accessible tree went away at
    Ctrl+N after the Sets step in 5 of 9 runs (0 of 4 without the change)."""
    def hotkey(*keys):
        return lambda: key(*keys)

    def tab():
        return lambda: key("Tab")
    field_said(sp, "the command field (Ctrl+Shift+K)", "Команда", hotkey("ctrl+shift+k"))
    field_said(sp, "the search field (Ctrl+Shift+F)", "Найти в рукописи", hotkey("ctrl+shift+f"))

    # The Sets panel by its radio button, then Tab into it.
    key("shift+Tab")
    focus.wait("radio button", r"^Поиск$")
    key("Right")
    focus.wait("radio button", r"^Наборы$")
    sp.wait(time.time(), None, 8, 1.0)
    field_said(sp, "the target-set name (the Sets panel, Tab)", "Имя нового набора", tab())
    key("ctrl+shift+e")
    in_text("the fields' hints")
    sp.wait(time.time(), None, 8, 1.0)
    field_said(sp, "the New dialog's title (Ctrl+N)", "Название", hotkey("ctrl+n"))
    field_said(sp, "the New dialog's file (Tab)", "Файл", tab())
    action(sp, "Escape from the New dialog", lambda: key("Escape"), want=[r"строка \d+\.$"])
    in_text("Escape from the New dialog")

    key("alt+3")
    focus.wait("entry", r"^Адрес сервера")
    sp.wait(time.time(), None, 8, 1.0)
    field_said(sp, "Settings' model field (Alt+3, Tab)", "Модель", tab())
    # Alt+2: Orca 43 may drop the focus event of a workspace's first control;
    # the window's notice names the field then (docs/window.md). Either way
    # the example is never its value.
    label = "Команда с номером или цель"
    heard = action(sp, "the Browser's command field (Alt+2)", hotkey("alt+2"), want=[r"^Рабочая область «Браузер»"],
                   never=[label + r" entry \S"])
    check(any(re.match(r"^(Рабочая область «Браузер»\. )?" + label + r"(\.| entry\.?)$", x) for x in heard),
          f"the Browser's command field: named ({heard})")
    check(focus.wait("entry", "^" + label + "$", 10) and focus.text() == "",
          f"the Browser's command field: the focus is in the empty field ({focus.role_name()}, {focus.text()!r})")
    key("alt+1")
    in_text("Alt+1")


def command_from_selection(sp, place):
    """Ctrl+Shift+K from a word selected in the text, 3 times: the command
    field named once each time, and not the selection left behind ("Text
    unselected."). Each time the search panel is shown first and the command
    field has been typed into: its panel is then shown by the same key press,
    WebKitGTK told of the field's caret before its focus, and Orca 43's
    WebKitGTK script, taking the caret for the focus, dropped the focus event
    and said only "Text unselected." (3 of 3 before focusField set an empty
    field's text anew; docs/window.md)."""
    t = time.time()
    key("ctrl+shift+k")
    if type_into("entry", r"^Команда", "x", since=t):
        key("ctrl+a", "BackSpace")
        latency.wait_for(lambda: focus.text() == "", 10)
    for i in (1, 2, 3):
        t = time.time()
        key("ctrl+shift+f")
        focus.wait("entry", r"^Найти в рукописи")
        sp.wait(t, r"^Найти в рукописи", 15, 1.0)
        t = time.time()
        key("ctrl+shift+e")
        in_text("Ctrl+Shift+E")
        sp.wait(t, place, 20, 1.0)  # Orca has said the place (late on a loaded machine)
        t = time.time()
        key("ctrl+shift+Right")
        sp.wait(t, r"selected", 15, 1.0)  # and the word selected
        name = f"Ctrl+Shift+K from a selection in the text, the search panel shown ({i} of 3)"
        texts = action(sp, name, lambda: key("ctrl+shift+k"), never=[place])
        check(focus.wait("entry", r"^Команда", 10), f"{name}: the focus is in the command field ({focus.role_name()})")
        named = [x for x in texts if re.match(r"^Команда entry", x)]
        check(len(named) == 1, f"{name}: said /^Команда entry/ once (heard {len(named)} times)")
        check(not any("unselected" in x for x in texts), f"{name}: nothing said matches /unselected/ ({texts})")


def run_with_orca(sp, ref):
    global speech_log
    speech_log = sp
    book2 = os.path.join(WORK, "book2.md")
    shutil.copy(BOOK, book2)
    os.chmod(book2, 0o644)
    subprocess.run(["xdotool", "windowfocus", "--sync", WID], check=True)
    sp.wait(time.time(), None, 10, 2.0)  # Orca reads the window it finds

    tool_words = r"ReplaceText|InsertText|DeleteText|ReplaceAll|RunCursorAgent|\bH\d\.p\d+|\.\.(?!\.)"
    # The window's English sentences, never said in a Russian window about a
    # Russian command (Orca's own words, "push button", are not among them).
    english = r"Running:|To review|Tab to|Kept:|Undone:|ended without|matches for|occurrences? of|paragraphs?\b|people;|mentions? (in|\d)|Nothing was"
    # Where the author lands, as the window says it, in the window's language:
    # «Том 1, Часть первая, VIII, строка 3» (a heading may end in a full stop:
    # «Том 2, ЧАСТЬ ПЕРВАЯ., строка 45.»).
    place = r"Том \d, .*строка \d+\."
    if part("hints"):
        hints_part(sp)
    if part("open"):
        open_part(sp, book2, place)
    if part("openloop"):
        open_loop_part(sp, book2)
    if part("counts"):
        for i in (1, 2, 3):
            action(sp, f"the word counts (Ctrl+Shift+W, {i} of 3)", lambda: key("ctrl+shift+w"),
                   want=[r"^Книга: [\d\s]+ сло(во|ва|в)"], never=["·"])
    if part("focusmode"):
        action(sp, "entering focus mode (Ctrl+Shift+Enter)", lambda: key("ctrl+shift+Return"),
               want=[r"^Режим без отвлечений: только текст"])
        action(sp, "leaving focus mode (Escape)", lambda: key("Escape"), want=[r"^Режим без отвлечений выключен\."])

    if part("search"):
        def search():
            t = time.time()
            key("ctrl+shift+f")
            if type_into("entry", r"^Найти в рукописи", "Наташа", since=t):
                key("Return")
        action(sp, "a search (Ctrl+Shift+F, Наташа, Enter)", search,
               want=[r"^\d+ совпадени[еяй] с «Наташа»\.$"], never=[english], seconds=60)

    def command(text):
        def do():
            t = None if focus.role_name()[1].startswith("Команда") else time.time()
            key("ctrl+shift+k")
            if type_into("entry", r"^Команда", text, since=t):
                key("Return")
        return do
    if part("command"):
        command_from_selection(sp, place)
        # Alt+1 where the focus stays (the command field): the notice names it.
        action(sp, "Alt+1 in the command field", lambda: key("alt+1"), want=[r"^Рабочая область «Рукопись»\. Команда\b"])
        action(sp, "a command's answer (найди «И Наташа не могла больше говорить»)",
               command("найди «И Наташа не могла больше говорить»"),
               want=[r"Том 1, Часть первая, VIII: «И Наташа не могла больше говорить"],
               never=[r"^Оглавление tree", tool_words], seconds=90)
    if part("error"):
        action(sp, "an error (an unknown command)", command("фывапролд"),
               want=[r"^Команда не выполнена: фывапролд\. Встроенный помощник не понимает команду «фывапролд»"],
               never=[tool_words, english], seconds=90)
    if part("replace"):
        # The answer, not the "Running: …" line (a command on the whole book takes a while).
        action(sp, "a replace (замени «Пьер» на «Петр»)", command("замени «Пьер» на «Петр»"),
               want=[r"^Заменил «Пьер» на «Петр».* На проверку: Замена «[^»]*Пьер[^»]*» на «[^»]*Петр[^»]*» — Том \d.* Tab — к кнопкам Принять и Отменить\.$"],
               never=[r"^Оглавление tree", tool_words, english], seconds=180)
        # The edit to review, by Tab from the command field: its words, then Accept.
        heard = tab_to(sp, "push button", r"^Принять\b")
        diff = [t for t in heard if re.search(r"^Принять: Замена «[^»]*Пьер[^»]*» на «[^»]*Петр[^»]*» — Том \d", t)]
        check(bool(diff), f"the diff: Tab to Accept says the edit in words ({heard})")
        check(not [t for t in heard if re.search(tool_words, t) or re.search(english, t)],
              "the diff: no tool names, pointers or English sentences said")
        action(sp, "Accept", lambda: key("Return"), want=[r"^Оставлено: Замена «[^»]*Пьер[^»]*» на «[^»]*Петр"], never=[tool_words, english])
        action(sp, "a second replace (замени «Наташа» на «Наталья»)", command("замени «Наташа» на «Наталья»"),
               want=[r"^Заменил «Наташа» на «Наталья».* Tab — к кнопкам Принять и Отменить\.$"], never=[tool_words, english], seconds=180)
        tab_to(sp, "push button", r"^Отменить правку")
        action(sp, "Undo this edit", lambda: key("Return"), want=[r"^Отменено: Замена «[^»]*Наташа[^»]*» на «[^»]*Наталья"],
               never=[tool_words, english], seconds=90)  # 713 paragraphs of the 6 MB book: as slow as the replace
    if part("workspaces"):
        t = time.time()
        key("ctrl+shift+e")
        focus.wait("entry", r"^Текст рукописи$")
        sp.wait(t, place, 20, 1.5)  # Orca has said the place (slow on a loaded machine)
        # The notice names the control the keys now go to: Orca 43 may drop the
        # focus event itself (WebKitGTK sends it for an object it then replaces).
        action(sp, "Alt+3", lambda: key("alt+3"), want=[r"^Рабочая область «Настройки»\. Адрес сервера\.$"])
        # Back in the text, only the notice: not text WebKit selected on its own
        # before the editor put its selection back, nor "unselected" after it.
        action(sp, "Alt+1", lambda: key("alt+1"), want=[r"^Рабочая область «Рукопись»\. " + place + "$"],
               never=[r"^(un)?selected$"])
        # Alt+1 in the workspace the author is in: the place again, not the name alone.
        action(sp, "Alt+1 again", lambda: key("alt+1"), want=[r"^Рабочая область «Рукопись»\. " + place + "$"],
               never=[r"^(un)?selected$", r"^Рабочая область «Рукопись»\.$"])
    if part("outline"):
        def outline_enter():
            key("ctrl+shift+o")
            if focus.wait("tree item", r"сло(во|ва|в)\)$"):
                was = focus.role_name()[1]
                key("Down")
                latency.wait_for(lambda: focus.role_name()[1] != was, 10)
                key("Return")
        action(sp, "Enter on an outline entry (Ctrl+Shift+O, Down, Enter)", outline_enter,
               want=[r"^Том 1, Часть первая, [IVXLC]+, строка 1\.$"], seconds=30)

    if part("findbar"):
        # The find bar (Ctrl+F, Ctrl+H): each count, step and replace said; back in
        # the text, the place.
        def find_bar():
            t = time.time()
            key("ctrl+f")
            type_into("entry", r"^Найти$", "Наташа", since=t)
        # The count once, in the search's sentence (not also the field's
        # description, the count before: "1 из 1.", "Нет совпадений.").
        action(sp, "the find bar (Ctrl+F, Наташа)", find_bar,
               want=[r"^\d+ из \d+ совпадени[йя] с «Наташа», Том \d"],
               never=[tool_words, english, r"^(\d+ из \d+|Нет совпадений)\.?$"],
               seconds=60)
        action(sp, "the next match (Enter)", lambda: key("Return"), want=[r"^\d+ из \d+, Том \d"])
        action(sp, "the previous match (Shift+Enter)", lambda: key("shift+Return"), want=[r"^\d+ из \d+, Том \d"])
        # Ctrl+H names the field it moved to (it moved there in silence).
        action(sp, "Ctrl+H", lambda: key("ctrl+h"), want=[r"^Заменить на entry"])

        def replace_bar():
            if type_into("entry", r"^Заменить на$", "Наталья"):
                key("ctrl+Return")
        action(sp, "Replace all's preview (Наталья, Ctrl+Enter)", replace_bar,
               want=[r"^Заменить всё: \d+ вхождени[еяй] «Наташа» в \d+ абзаца?х? стан(ет|ут) «Наталья»\. Tab — к кнопкам Заменить все и Отмена\."],
               never=[english], seconds=90)
        # The preview's heading has the focus (Escape then cancels it, not the bar).
        focus.wait("heading", r"^Заменить всё:", 30)
        action(sp, "Escape from the preview", lambda: key("Escape"), want=[r"^Ничего не заменено\."])
        action(sp, "Escape from the find bar", lambda: key("Escape"), want=[r"^" + place + "$"])
    if part("people"):
        # The People panel: its tab, Find the people, a person, the next mention.
        t = time.time()
        key("ctrl+shift+k")
        focus.wait("entry", r"^(Command|Команда)")
        sp.wait(t, r"^(Command|Команда)", 15, 1.0)  # Orca has said where the focus is

        def to_switcher():
            key("shift+Tab")
            focus.wait("radio button", r"^(Command|Команда)$")
        # The panels' switcher: a radio group, its checked button said.
        action(sp, "the panels (Shift+Tab from the command field)", to_switcher,
               want=[r"^(Command|Команда)\.?$", r"^selected radio button", r"^(Manuscript tools|Инструменты рукописи) panel"])
        people, history = r"^(People|Персонажи)\.?$", r"^(History|История)\.?$"  # the window's language
        # People's name and state said once, by the focus; not its checked
        # change again ("selected", or a toggle button's "pressed": WebKitGTK
        # sends the state change after the focus event).
        action(sp, "the People tab (End)", lambda: key("End"),
               want=[people, r"^selected radio button"], never=[r"^(not )?(selected|pressed)\.?$", r"pressed"])
        # The arrows: each panel said once, as it is checked.
        action(sp, "the History tab (Left)", lambda: key("Left"),
               want=[history, r"^selected radio button"], never=[r"^(not )?selected\.?$", people])
        action(sp, "the People tab again (Right)", lambda: key("Right"),
               want=[people, r"^selected radio button"], never=[r"^(not )?selected\.?$", history])
        tab_to(sp, "push button", r"^Найти персонажей$")
        action(sp, "Find the people", lambda: key("Return"),
               want=[r"^\d+ персонаж(а|ей)?; чаще всех названы: "], never=[tool_words, english], seconds=180)
        tab_to(sp, "push button", r" — [\d,]+$")
        action(sp, "a person (Enter)", lambda: key("Return"),
               want=[r": \d+ упоминани(е|я|й) в \d+ глав(е|ах)\. Впервые — "], never=[english], seconds=30)
        tab_to(sp, "push button", r"^Следующее упоминание$")
        action(sp, "Next mention", lambda: key("Return"), want=[r": упоминание 1 из \d+ абзац(а|ев)\. " + place])

    if part("emptyline"):
        empty_line_part(sp, None, "Russian")
        english = os.path.join(WORK, "book.md")
        if os.path.exists(english):
            empty_line_part(sp, english, "English")

    if not part("latency"):
        return report()
    # 4. Typing with Orca: no key later than KEY_LIMIT beyond the reference.
    for where, text in TYPED:
        lat = type_latency(where, text)
        print(f"with Orca, typing in the {where}: {latency.summary(lat, KEY_LIMIT)}, {slow(lat)} over {1000 * SLOW:.0f} ms",
              flush=True)
        print("  ms a key: " + " ".join("-" if x is None else str(int(1000 * x)) for x in lat), flush=True)
        print(f"  the window's CPU: {1000 * latency.type_timed.cpu:.0f} ms a key ({latency.type_timed.split}); meanwhile " + latency.type_timed.census, flush=True)
        print(f"  the rest of the machine, CPU a key: {latency.type_timed.rest}", flush=True)
        # What Orca makes the window do a key stays modest: after a dialog of the
        # page Orca 43 asked the page for its outer objects' states ~150 times a
        # key, the window's CPU a key went from ~60 ms to ~100 ms, and keys fell
        # behind whenever the machine was busy (docs/window.md, "Dialogs and Orca").
        cpu, ref_cpu = latency.type_timed.cpu, REF_CPU.get(where, 0)
        check(cpu <= 1.5 * ref_cpu + 0.015,
              f"typing in the {where} with Orca: the window's CPU {1000 * cpu:.0f} ms a key, "
              f"at most 1.5 × {1000 * ref_cpu:.0f} ms + 15 ms (without Orca)")
        base = worst(ref[where])
        got = worst(lat)
        # A reference that lost keys judges nothing (inf would let anything pass).
        check(base != float("inf"), f"typing in the {where} without Orca: every key arrived (the reference)")
        check(got <= max(base, KEY_LIMIT) + KEY_LIMIT,
              f"typing in the {where} with Orca: the latest key {1000 * got:.0f} ms, "
              f"at most {1000 * KEY_LIMIT:.0f} ms beyond {1000 * max(base, KEY_LIMIT):.0f} ms "
              f"(the latest without Orca {1000 * base:.0f} ms)")

    return report()


def report():
    print("\nwhat Orca said, action by action:")
    for name, texts in record:
        print(f"  {name}: {texts}")
    print(f"speech: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
