"""Key presses through the X server's XTest extension, for the screen-reader tier.

`xdotool type` drops Cyrillic letters under Xvfb: for a letter the keymap lacks it
remaps one scratch keycode, presses it and maps it back, and GTK sometimes reads the
press after the map has changed again. Here the display has the layouts a Russian
author has (`setxkbmap -layout us,ru`, done by build/a11y/session.sh): a Cyrillic
letter is typed as that author types it, the Russian group locked and the letter's
own key pressed. The few characters neither layout has (« and ») get a spare keycode
of their own once, before typing starts, so no keymap changes while keys are pressed.
Keys are plain XTest presses, so they arrive as a keyboard's would: through the X
server, GTK, the accessibility bridge and the screen reader's key listener.
"""

import ctypes
import ctypes.util
import os
import subprocess
import time

_x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
_xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")

_x11.XOpenDisplay.restype = ctypes.c_void_p
_x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
_x11.XStringToKeysym.restype = ctypes.c_ulong
_x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
_x11.XDisplayKeycodes.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
_x11.XGetKeyboardMapping.restype = ctypes.POINTER(ctypes.c_ulong)
_x11.XGetKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_ubyte, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
_x11.XChangeKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                        ctypes.POINTER(ctypes.c_ulong), ctypes.c_int]
_x11.XkbLockGroup.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
_x11.XFree.argtypes = [ctypes.c_void_p]
_x11.XFlush.argtypes = [ctypes.c_void_p]
_x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
_xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]

_USE_CORE_KBD = 0x0100

# Characters typed by a key whose keysym has a name rather than the character's code.
_NAMED = {" ": "space", "\n": "Return", "\t": "Tab"}
# Cyrillic letters have legacy keysyms (0x6xx) in the ru layout; map by name.
_CYR = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_CYR_NAMES = ["a", "be", "ve", "ghe", "de", "ie", "io", "zhe", "ze", "i", "shorti", "ka", "el", "em", "en", "o",
              "pe", "er", "es", "te", "u", "ef", "ha", "tse", "che", "sha", "shcha", "hardsign", "yeru",
              "softsign", "e", "yu", "ya"]


def keysym_of(ch):
    """The X keysym that types ch."""
    if ch in _NAMED:
        return _x11.XStringToKeysym(_NAMED[ch].encode())
    low = ch.lower()
    if low in _CYR:
        name = _CYR_NAMES[_CYR.index(low)]
        return _x11.XStringToKeysym(("Cyrillic_" + (name if ch == low else name.upper())).encode())
    cp = ord(ch)
    if 0x20 <= cp <= 0x7E or 0xA0 <= cp <= 0xFF:
        return cp
    return 0x01000000 + cp


class Keyboard:
    """XTest presses on $DISPLAY."""

    def __init__(self, display=None):
        display = display or os.environ["DISPLAY"]
        self.dpy = _x11.XOpenDisplay(display.encode())
        if not self.dpy:
            raise RuntimeError("cannot open the X display for XTest")
        # The layouts are set while this connection is open: Xvfb resets its keymap
        # when its last client leaves.
        subprocess.run(["setxkbmap", "-display", display, "-layout", "us,ru"], check=True)
        _x11.XSync(self.dpy, 0)
        self.group = None
        self._read_map()
        self.shift = self.where(_x11.XStringToKeysym(b"Shift_L"))[0]

    def _read_map(self):
        """keysym -> (keycode, group, shifted), the first group and level first."""
        lo, hi = ctypes.c_int(), ctypes.c_int()
        _x11.XDisplayKeycodes(self.dpy, ctypes.byref(lo), ctypes.byref(hi))
        per = ctypes.c_int()
        n = hi.value - lo.value + 1
        m = _x11.XGetKeyboardMapping(self.dpy, lo.value, n, ctypes.byref(per))
        self.map, self.spare = {}, []
        try:
            # The core map's columns: group 1 level 1, group 1 level 2, group 2 level 1,
            # group 2 level 2, then others.
            for col in range(min(per.value, 4)):
                for i in range(n):
                    ks = m[i * per.value + col]
                    if ks and ks not in self.map:
                        self.map[ks] = (lo.value + i, col // 2, col % 2 == 1)
            for i in range(n):
                if all(m[i * per.value + j] == 0 for j in range(per.value)):
                    self.spare.append(lo.value + i)
        finally:
            _x11.XFree(m)
        self.spare.sort(reverse=True)  # the high ones: keyboards use the low ones

    def where(self, ks):
        return self.map.get(ks)

    def prepare(self, text):
        """Gives every character of text that no layout has a spare keycode of its own."""
        need = [ch for ch in dict.fromkeys(text) if self.where(keysym_of(ch)) is None]
        if not need:
            return
        if len(need) > len(self.spare):
            raise RuntimeError(f"{len(need)} characters need a keycode, only {len(self.spare)} are spare")
        for ch in need:
            code = self.spare.pop(0)
            syms = (ctypes.c_ulong * 2)(keysym_of(ch), keysym_of(ch))
            _x11.XChangeKeyboardMapping(self.dpy, code, 2, syms, 1)
            self.map[keysym_of(ch)] = (code, 0, False)
        _x11.XSync(self.dpy, 0)
        time.sleep(0.3)  # GTK reads the new map before the first key that needs it

    def lock_group(self, group):
        if group != self.group:
            _x11.XkbLockGroup(self.dpy, _USE_CORE_KBD, group)
            _x11.XSync(self.dpy, 0)
            self.group = group

    def type_char(self, ch, hold=0.01):
        """Presses and releases the key of ch, in the layout that has it."""
        w = self.where(keysym_of(ch))
        if w is None:
            self.prepare(ch)
            w = self.where(keysym_of(ch))
        code, group, shifted = w
        self.lock_group(group)
        if shifted:
            _xtst.XTestFakeKeyEvent(self.dpy, self.shift, 1, 0)
        _xtst.XTestFakeKeyEvent(self.dpy, code, 1, 0)
        _x11.XFlush(self.dpy)
        if hold:
            time.sleep(hold)
        _xtst.XTestFakeKeyEvent(self.dpy, code, 0, 0)
        if shifted:
            _xtst.XTestFakeKeyEvent(self.dpy, self.shift, 0, 0)
        _x11.XFlush(self.dpy)

    def latin(self):
        """Back to the first (Latin) layout, where xdotool's hotkeys are."""
        self.lock_group(0)
