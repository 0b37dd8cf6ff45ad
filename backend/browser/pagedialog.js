// Waymark's page dialogs (Options.OwnDialogs, the window's visible browser):
// alert, confirm and prompt of every document are replaced, in the page's
// own world, by functions that stop the page at a `debugger;` statement
// while Waymark asks the user (Debugger.paused, pagedialog.go), exactly as
// the browser's own dialog would stop it, and return the user's answer. The
// browser then never draws its own dialog, which took the keyboard and the
// screen reader's focus from Waymark's window. If the page does not stop
// there (the debugger is not on in this frame), the browser's own dialog
// opens as before: nothing is ever answered silently.
(() => {
  const w = window;
  const nat = { alert: w.alert, confirm: w.confirm, prompt: w.prompt };
  let stopped = false; // the user stopped this document's dialog loop
  const str = (v) => (v === undefined ? '' : String(v));
  function wmPageDialog(kind, args) {
    const q = { kind, message: str(args[0]), def: kind === 'prompt' ? str(args[1]) : '', answered: false, ok: false, text: null, stop: false };
    if (stopped) return kind === 'confirm' ? false : kind === 'prompt' ? null : undefined;
    debugger; // Waymark reads q here, and writes the answer into it
    if (!q.answered) return nat[kind].apply(w, args);
    if (q.stop) stopped = true;
    if (kind === 'alert') return undefined;
    if (kind === 'confirm') return q.ok;
    return q.ok ? str(q.text) : null;
  }
  const own = {
    alert() { return wmPageDialog('alert', arguments); },
    confirm() { return wmPageDialog('confirm', arguments); },
    prompt() { return wmPageDialog('prompt', arguments); },
  };
  for (const k of ['alert', 'confirm', 'prompt']) {
    if (typeof nat[k] === 'function') {
      Object.defineProperty(w, k, { value: own[k], writable: true, enumerable: true, configurable: true });
    }
  }
})();
//# sourceURL=waymark-page-dialog.js
