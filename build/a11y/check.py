#!/usr/bin/python3
"""The screen-reader tier: reads Waymark's real window through AT-SPI, the way
Orca does, while pressing keys in it with xdotool.

Run by `bash build/test.sh a11y` inside a private session bus with an at-spi
bus, Xvfb and the production window open on BOOK (see a11y_tier there). It
checks what reaches a screen reader, not the DOM:

  * every outline entry is a named treeitem with a level;
  * each message (start-up, workspace, word counts, matches, Replaced…, Kept…,
    Undone…, an error) arrives as an event on a live region: an element added
    to the status, alert or log region (WebKitGTK says nothing to AT-SPI when
    only a text node changes);
  * a workspace switch, and entering or leaving distraction-free mode, costs at
    most MAX_EVENTS AT-SPI events;
  * the focus is on the expected element after each hotkey, and a letter typed
    right after Ctrl+Shift+K lands in the command field;
  * the place is said after a jump from the outline, and the text has no
    description that could go stale.

What Orca itself says is checked afterwards by build/a11y/speech.py.

Environment: WID (the X window), BOOK (the Markdown file the window shows).
Exit status 0 when every check passed; the last line says how many failed.
"""

import os
import re
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

MAX_EVENTS = 100
WID = os.environ["WID"]
BOOK = os.environ["BOOK"]

Atspi.init()
ctx = GLib.MainContext.default()

events = []  # (type, source role, source name) of every event since the last clear
lives = []  # (region: status|alert|log, text) of every element added to a live region
focus = {"role": "", "name": "", "obj": None}
failures = []


def text_of(o, depth=0):
    own = ""
    try:
        own = (Atspi.Text.get_text(o, 0, -1) or "").replace("\ufffc", "").strip()
    except Exception:
        pass
    if not own:
        try:
            own = (o.get_name() or "").strip()
        except Exception:
            pass
    if own or depth > 3:
        return own
    # No text of its own: a region whose message is a <p> that WebKit keeps as an
    # object of its own. Its children's text is the region's, as a screen reader
    # reads it.
    try:
        kids = [o.get_child_at_index(i) for i in range(o.get_child_count())]
    except Exception:
        return ""
    return " ".join(x for x in (text_of(k, depth + 1) for k in kids if k is not None) if x)


# The roles WebKitGTK gives the three regions: role=status, role=alert, role=log.
REGIONS = {"status bar": "status", "notification": "alert", "log": "log"}


def on_event(ev):
    try:
        src = ev.source
        role = src.get_role_name() if src else ""
        name = src.get_name() if src else ""
    except Exception:
        role, name = "gone", ""
    events.append((ev.type, role, name))
    if ev.type.startswith("object:children-changed:add") and isinstance(ev.any_data, Atspi.Accessible):
        # What Orca hears: an element added inside a live region. The region is
        # the event's source (or an ancestor of it); the child carries the
        # container-live attribute Orca reads.
        child = ev.any_data
        try:
            attrs = child.get_attributes() or {}
        except Exception:
            attrs = {}
        region, o = "", src
        for _ in range(4):
            if o is None:
                break
            try:
                region = REGIONS.get(o.get_role_name(), "")
                if region:
                    break
                o = o.get_parent()
            except Exception:
                break
        if region and attrs.get("container-live") in ("polite", "assertive"):
            lives.append((region, text_of(child)))
    elif ev.type.startswith("object:text-changed:insert"):
        try:
            attrs = ev.source.get_attributes() or {}
        except Exception:
            attrs = {}
        if attrs.get("container-live") in ("polite", "assertive"):
            lives.append((REGIONS.get(role, "text of " + role), str(ev.any_data)))
    elif ev.type.startswith("object:state-changed:focused") and ev.detail1 == 1:
        focus.update(role=role, name=name, obj=ev.source)


listener = Atspi.EventListener.new(on_event)
for t in (
    "object:children-changed",
    "object:text-changed",
    "object:state-changed",
    "object:property-change",
):
    listener.register(t)


def pump(seconds):
    end = time.time() + seconds
    while time.time() < end:
        while ctx.pending():
            ctx.iteration(False)
        time.sleep(0.01)


def wait_for(pred, seconds):
    end = time.time() + seconds
    while time.time() < end:
        while ctx.pending():
            ctx.iteration(False)
        v = pred()
        if v:
            return v
        time.sleep(0.02)
    return pred()


def keys(*args):
    """xdotool commands on the window, e.g. keys('key', 'alt+2', 'type', 'find')."""
    subprocess.run(["xdotool"] + list(args), check=True)


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def walk(o, out=None, skip_roles=()):
    if out is None:
        out = []
    out.append(o)
    try:
        n = o.get_child_count()
    except Exception:
        return out
    if o.get_role_name() in skip_roles:
        return out
    for i in range(n):
        try:
            c = o.get_child_at_index(i)
        except Exception:
            c = None
        if c is not None:
            walk(c, out, skip_roles)
    return out


def find(root, role, name=None, prefix=None):
    for o in walk(root):
        try:
            if o.get_role_name() != role:
                continue
            n = o.get_name() or ""
        except Exception:
            continue
        if name is not None and n != name:
            continue
        if prefix is not None and not n.startswith(prefix):
            continue
        return o
    return None


def live_since(mark, region, pattern):
    return [t for r, t in lives[mark:] if r == region and re.search(pattern, t)]


def expect_live(mark, region, pattern, what, seconds=8):
    got = wait_for(lambda: live_since(mark, region, pattern), seconds)
    check(bool(got), f"{what}: an element added to the {region} region says /{pattern}/" +
          (f" ({got[0][:70]!r})" if got else f"; heard {[x for x in lives[mark:]][:4]}"))


def expect_focus(role, name, what, seconds=3):
    ok = wait_for(lambda: focus["role"] == role and (name is None or re.search(name, focus["name"] or "")), seconds)
    check(bool(ok), f"{what}: focus on {role} /{name}/ (it is on {focus['role']} {focus['name']!r})")


# --- the window and its document ------------------------------------------------------
keys("windowfocus", "--sync", WID)
desktop = Atspi.get_desktop(0)


def find_app():
    for i in range(desktop.get_child_count()):
        a = desktop.get_child_at_index(i)
        if a is not None and (a.get_name() or "").startswith("waymark"):
            return a
    return None


app = wait_for(find_app, 20)
if app is None:
    print("FAIL no application named waymark* on the accessibility bus")
    sys.exit(1)
doc = wait_for(lambda: find(app, "document web"), 20)
if doc is None:
    print("FAIL the window has no web document in its accessibility tree")
    sys.exit(1)


def status_text():
    # Looked up afresh each time: while the window loads, its page may move to
    # another web process, and the first document's objects then go quiet.
    a = find_app() or app
    d = (find(a, "document web") if a else None) or doc
    s = find(d, "status bar")
    return text_of(s) if s else ""


# WebKit builds the accessible objects when asked: walk once, then wait for the book.
walk(doc)
opened = wait_for(lambda: status_text().startswith("Opened "), 60)
check(bool(opened), f"start-up: the status region says the book was opened ({status_text()[:60]!r})")
if not opened:
    def dump(o, depth=0):
        try:
            t = Atspi.Text.get_text(o, 0, -1)
        except Exception as e:
            t = f"<no text: {e}>"
        print("   " + "  " * depth + f"{o.get_role_name()} name={o.get_name()!r} text={t!r} children={o.get_child_count()}")
        if depth < 3:
            for i in range(o.get_child_count()):
                k = o.get_child_at_index(i)
                if k is not None:
                    dump(k, depth + 1)
    a = find_app() or app
    d = (find(a, "document web") if a else None) or doc
    for r in ("status bar",):
        x = find(d, r)
        print(f"   the {r}:" if x else f"   no {r} found")
        if x:
            dump(x)
pump(1.5)
# The page's objects may have moved to another web process while the window
# loaded: look the document up again, and skip objects that went away.
app = find_app() or app
doc = find(app, "document web") or doc


def role_of(o):
    try:
        return o.get_role_name()
    except Exception:
        return ""


def name_of(o):
    try:
        return o.get_name() or ""
    except Exception:
        return ""


def focused(o):
    try:
        return o.get_state_set().contains(Atspi.StateType.FOCUSED)
    except Exception:
        return False


nodes = walk(doc)
roles = [role_of(o) for o in nodes]
check("notification" in roles, "the alert region is in the tree from the start")
check("log" in roles and "status bar" in roles, "the status and log regions are in the tree")
editor_name = "Manuscript text"
start = [o for o in nodes if focused(o)]
check(any(name_of(o) == editor_name for o in start),
      f"start-up: the focus is on the manuscript text ({[(role_of(o), name_of(o)) for o in start]})")

# --- 2. the outline: a tree of named entries --------------------------------------------
headings = sum(1 for line in open(BOOK, encoding="utf-8") if re.match(r"#{1,6}\s", line))
tree = find(doc, "tree", "Outline")
items = [o for o in walk(tree)] if tree else []
items = [o for o in items if role_of(o) == "tree item"]


named = [o for o in items if name_of(o).strip()]
levels = set()
for o in items:
    try:
        levels.add((o.get_attributes() or {}).get("level", ""))
    except Exception:
        pass
print(f"outline: {len(items)} tree items, {len(named)} named, levels {sorted(levels)}; the book has {headings} headings")
check(tree is not None, "the outline is a tree named Outline")
check(len(items) == headings and len(named) == headings, f"every outline entry is a named tree item ({len(named)}/{len(items)} of {headings})")
check(len(levels - {""}) >= 2, f"outline entries carry levels ({sorted(levels)})")

# --- 3. workspace switches: few events, focus moves in, the switch is said ---------------
switch_counts = []
for key, title, frole, fname in (
    ("alt+2", "Browser", "entry", r"^Number command or goal"),
    ("alt+3", "Settings", "entry", r"^Server address$"),
    ("alt+1", "Manuscript", "entry", f"^{editor_name}$"),
    ("alt+2", "Browser", "entry", r"^Number command or goal"),
    ("alt+1", "Manuscript", "entry", f"^{editor_name}$"),
):
    pump(0.3)
    events.clear()
    mark = len(lives)
    keys("key", "--clearmodifiers", key)
    expect_live(mark, "status", rf"^{title} workspace\.", f"{key}")
    expect_focus(frole, fname, f"{key}")
    pump(1.0)
    n = len(events)
    switch_counts.append(n)
    check(n <= MAX_EVENTS, f"{key} ({title}) caused {n} AT-SPI events (at most {MAX_EVENTS})")
print(f"events per workspace switch: {switch_counts}")

# --- distraction-free mode: the chrome folds away without a storm of events -------------
# (display: none made WebKitGTK remove and re-add the 382 outline entries each way; Orca
# took seconds to digest them while the keys typed meanwhile waited.)
for key, said in (("ctrl+shift+Return", r"^Distraction-free mode: only the text"), ("Escape", r"^Distraction-free mode off")):
    pump(0.3)
    events.clear()
    mark = len(lives)
    keys("key", "--clearmodifiers", key)
    expect_live(mark, "status", said, f"{key} (distraction-free mode)")
    pump(1.0)
    check(len(events) <= MAX_EVENTS, f"{key} (distraction-free mode) caused {len(events)} AT-SPI events (at most {MAX_EVENTS})")

# --- 1. word counts, twice (the same words are heard again) ------------------------------
for i in (1, 2):
    mark = len(lives)
    keys("key", "--clearmodifiers", "ctrl+shift+w")
    expect_live(mark, "status", r"^Book [\d,]+ words\. ", f"Ctrl+Shift+W ({i})")

# --- 2. the outline by keyboard; 3. the place is said after the jump -------------------
keys("key", "--clearmodifiers", "ctrl+shift+o")
expect_focus("tree item", r"\(\d[\d,]* words\)$", "Ctrl+Shift+O")
first = focus["name"]
for _ in range(3):
    before = focus["name"]
    keys("key", "Down")
    wait_for(lambda: focus["name"] != before, 5)
expect_focus("tree item", r"\(\d[\d,]* words\)$", "Down in the outline")
check(focus["name"] != first, f"Down moves in the outline ({first!r} -> {focus['name']!r})")
chosen = focus["name"]
mark = len(lives)
keys("key", "Return")
expect_focus("entry", f"^{editor_name}$", "Enter on an outline entry")
title = re.sub(r"\s*\([\d,]+ words\)$", "", chosen)
expect_live(mark, "status", re.escape(title) + r", line 1$", "Enter on an outline entry says where the cursor landed")
# The counts are no description of the text: WebKitGTK sends no event when
# they change, and Orca kept saying the old ones.
try:
    stale = focus["obj"].get_description() or ""
except Exception:
    stale = ""
check(stale == "", f"the text has no description that could go stale ({stale[:60]!r})")
# ...and again for the next chapter.
keys("key", "--clearmodifiers", "ctrl+shift+o")
expect_focus("tree item", r"\(\d[\d,]* words\)$", "Ctrl+Shift+O again")
before = focus["name"]
keys("key", "Down")
wait_for(lambda: focus["name"] != before, 5)
title2 = re.sub(r"\s*\([\d,]+ words\)$", "", focus["name"])
mark = len(lives)
keys("key", "Return")
expect_focus("entry", f"^{editor_name}$", "Enter on the next outline entry")
check(title2 != title, f"the next entry is another chapter ({title!r}, {title2!r})")
expect_live(mark, "status", re.escape(title2) + r", line 1$", "Enter on the next outline entry says where")

# --- 1. search: "N matches" --------------------------------------------------------------
mark = len(lives)
keys("key", "--clearmodifiers", "ctrl+shift+f", "type", "Natasha")
keys("key", "Return")
expect_live(mark, "status", r"^\d[\d,]* match(es)? for “Natasha”", "search")

# --- 3. Ctrl+Shift+K, then typing at once; 1. Replaced… -----------------------------------
keys("key", "--clearmodifiers", "ctrl+shift+k", "type", "--delay", "0", 'replace "cellaret" with "cupboard"')
cmd = find(doc, "entry", prefix="Command")
want = 'replace "cellaret" with "cupboard"'
typed = wait_for(lambda: (text_of(cmd) if cmd else "") == want and want, 5) or (text_of(cmd) if cmd else "")
check(typed == 'replace "cellaret" with "cupboard"', f"the letters typed right after Ctrl+Shift+K are all in the command field ({typed!r})")
for command in ('replace "cellaret" with "cupboard"', 'replace "porter were" with "porters were"'):
    if command != typed:
        keys("key", "--clearmodifiers", "ctrl+shift+k", "ctrl+a", "type", command)
    mark = len(lives)
    keys("key", "Return")
    expect_live(mark, "status", r"^Replaced ", f"command {command}", 20)
    check(bool(live_since(mark, "log", r"^Waymark: Replaced ")), f"command {command}: the log region got the answer")
    typed = ""

# --- 3. Undo and Accept keep the focus in the list of edits; 1. Undone…, Kept… -----------
pump(0.5)
undo = find(doc, "push button", prefix="Undo this edit: ")
check(undo is not None, "the edits to review have an Undo this edit button named with the edit in words")
if undo is not None:
    Atspi.Component.grab_focus(undo)
    expect_focus("push button", r"^Undo this edit: Replace «", "grab focus on Undo this edit")
    mark = len(lives)
    keys("key", "Return")
    expect_live(mark, "status", r"^Undone: ", "Undo this edit", 15)
    expect_focus("push button", r"^Accept: Replace «", "after Undo the focus stays in the edits (the next one's Accept)")
    mark = len(lives)
    keys("key", "Return")
    expect_live(mark, "status", r"^Kept: ", "Accept")
    expect_focus("entry", r"^Command", "after the last Accept the focus goes to the command field")

# --- 1. an error arrives in the alert region ---------------------------------------------
keys("key", "--clearmodifiers", "ctrl+shift+k", "ctrl+a", "type", "frobnicate the moon")
mark = len(lives)
keys("key", "Return")
expect_live(mark, "alert", r"does not understand", "a command the engine does not know", 15)
keys("key", "--clearmodifiers", "ctrl+a", "type", "frobnicate the moon")
mark = len(lives)
keys("key", "Return")
expect_live(mark, "alert", r"does not understand", "the same error a second time", 15)

print(f"live-region messages heard: {len(lives)}; workspace switch events: {switch_counts}")
print(f"a11y: {len(failures)} failed")
sys.exit(1 if failures else 0)
