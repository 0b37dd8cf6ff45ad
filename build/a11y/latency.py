"""Key latency while typing with a screen reader running, for the screen-reader tier.

Keys are pressed through XTest at a steady pace (150 ms a key by default, each on
its own schedule, not after the last one was seen), and each typed character is
timed until the focused field reports it inserted (AT-SPI object:text-changed:insert,
which the web process sends once the key has come through the X server, GTK, the
accessibility bridge and the screen reader's key listener, and WebKit has put the
letter in the text). A key is late by the time from its press to its letter.
"""

import os
import threading
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


class Inserts:
    """Every text inserted into an object whose role is in roles, with its time."""

    def __init__(self, roles=("entry", "text", "paragraph", "section")):
        self.roles = roles
        self.got = []  # (time, text)
        self.listener = Atspi.EventListener.new(self._on)
        self.listener.register("object:text-changed:insert")

    def _on(self, ev):
        t = time.time()
        try:
            role = ev.source.get_role_name()
        except Exception:
            return
        if role in self.roles and isinstance(ev.any_data, str):
            self.got.append((t, ev.any_data))

    def close(self):
        try:
            self.listener.deregister("object:text-changed:insert")
        except Exception:
            pass


class Census:
    """How many AT-SPI events of each kind the window sent (type and the source's
    role), for saying what a slow key came with."""

    KINDS = ("object:", "window:")

    def __init__(self):
        self.counts = {}
        self.listener = Atspi.EventListener.new(self._on)
        for k in self.KINDS:
            self.listener.register(k)

    def _on(self, ev):
        try:
            role = ev.source.get_role_name()
        except Exception:
            role = "?"
        k = f"{ev.type} [{role}]"
        self.counts[k] = self.counts.get(k, 0) + 1

    def close(self):
        for k in self.KINDS:
            try:
                self.listener.deregister(k)
            except Exception:
                pass

    def summary(self, top=6):
        total = sum(self.counts.values())
        most = sorted(self.counts.items(), key=lambda kv: -kv[1])[:top]
        return f"{total} AT-SPI events: " + ", ".join(f"{n} {k}" for k, n in most)


def cpu_seconds(pid=None):
    """The CPU time (user and system, seconds) process pid and its children have
    used so far, by process name: the window and its WebKit processes (no pid:
    every process of the machine)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}  # pid: (ppid, ticks, name)
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                head, rest = f.read().rsplit(")", 1)
        except (OSError, ValueError):
            continue
        rest = rest.split()
        stats[int(d)] = (int(rest[1]), int(rest[11]) + int(rest[12]), head.split("(", 1)[1])
    mine = {pid} if pid else set(stats)
    grew = pid is not None
    while grew:
        grew = False
        for p, (ppid, _, _) in stats.items():
            if ppid in mine and p not in mine:
                mine.add(p)
                grew = True
    out = {}
    for p in mine & stats.keys():
        out[stats[p][2]] = out.get(stats[p][2], 0) + stats[p][1] / tick
    return out


def pump(seconds):
    ctx = GLib.MainContext.default()
    end = time.time() + seconds
    while time.time() < end:
        while ctx.pending():
            ctx.iteration(False)
        time.sleep(0.005)


def wait_for(pred, seconds):
    """pred() once it is true (pumping AT-SPI events meanwhile), else its last value."""
    ctx = GLib.MainContext.default()
    end = time.time() + seconds
    while time.time() < end:
        while ctx.pending():
            ctx.iteration(False)
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    return pred()


def type_timed(kb, text, pace=0.150, settle=30.0):
    """Types text at pace seconds a key and returns one latency (seconds) per
    character, None for a character that never arrived, and the inserts seen."""
    kb.prepare(text)
    ins = Inserts()
    census = Census()
    pump(0.3)
    pressed = []
    start = time.time() + 0.2

    def press():
        for i, ch in enumerate(text):
            delay = start + i * pace - time.time()
            if delay > 0:
                time.sleep(delay)
            pressed.append(time.time())
            kb.type_char(ch, hold=0.02)

    th = threading.Thread(target=press)
    th.start()
    ctx = GLib.MainContext.default()
    while th.is_alive():
        while ctx.pending():
            ctx.iteration(False)
        time.sleep(0.002)
    th.join()
    # The letters still on their way.
    end = time.time() + settle
    while time.time() < end and sum(len(x) for _, x in ins.got) < len(text):
        while ctx.pending():
            ctx.iteration(False)
        time.sleep(0.005)
    ins.close()
    census.close()
    type_timed.census = census.summary()
    # Each inserted letter belongs to the next key pressed (the field echoes what
    # is typed, one letter an event; an event of several letters is a burst).
    arrived = []
    for t, s in ins.got:
        arrived.extend([t] * len(s))
    lat = []
    for i, t0 in enumerate(pressed):
        lat.append(arrived[i] - t0 if i < len(arrived) else None)
    return lat, ins.got


def summary(lat, limit=0.150):
    got = [x for x in lat if x is not None]
    if not got:
        return "no letter arrived"
    s = sorted(got)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    over = sum(1 for x in got if x > limit)
    missing = sum(1 for x in lat if x is None)
    return (f"{len(lat)} keys: median {1000 * s[len(s) // 2]:.0f} ms, p95 {1000 * p95:.0f} ms, "
            f"max {1000 * s[-1]:.0f} ms, {over} over {1000 * limit:.0f} ms" +
            (f", {missing} never arrived" if missing else ""))
