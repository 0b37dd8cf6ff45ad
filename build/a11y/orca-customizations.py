# Loaded by Orca from its preferences folder (orca -u DIR) in the screen-reader tier
# (build/a11y/speech.py copies it there, in a throw-away HOME): every utterance Orca
# sends to its speech server is appended to $WAYMARK_ORCA_SPEECH as one JSON line
# {"t": epoch seconds, "kind": speak|char|key|stop, "text": ..., "interrupt": ...},
# so the tier judges what Orca SAID, not which AT-SPI events were sent. Nothing else
# of Orca changes: the wrapped functions are called as before.
import json
import os
import threading
import time

from orca import speech

_path = os.environ.get("WAYMARK_ORCA_SPEECH")
_lock = threading.Lock()


def _log(kind, text="", interrupt=None):
    if not _path:
        return
    line = json.dumps({"t": time.time(), "kind": kind, "text": text, "interrupt": interrupt}, ensure_ascii=False)
    with _lock, open(_path, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def _wrap(name, kind, describe):
    orig = getattr(speech, name)

    def wrapped(*args, **kwargs):
        try:
            _log(kind, *describe(*args, **kwargs))
        except Exception:  # the log must never break Orca
            pass
        return orig(*args, **kwargs)

    setattr(speech, name, wrapped)


# speech.speak() splits what a generator made into strings and hands each to
# _speak(text, acss, interrupt); key echo and character echo take their own ways.
_wrap("_speak", "speak", lambda text, acss=None, interrupt=True: (str(text), bool(interrupt)))
_wrap("speakCharacter", "char", lambda ch, acss=None: (str(ch), None))
_wrap("speakKeyEvent", "key", lambda ev, acss=None: (ev.getKeyName(), None))
_wrap("stop", "stop", lambda *a, **k: ("", None))
_log("loaded")
