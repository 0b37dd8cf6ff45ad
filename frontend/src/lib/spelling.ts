// Spelling underlines in the editor, drawn by CodeMirror from the backend's
// checker (the Spelling tool on the lines on screen: hunspell with the Russian
// and English dictionaries). WebKitGTK's own spell checking stays off: with a
// screen reader running it froze the window while the author typed (see
// app/screenreader_gtk.go). Only what is on screen is checked, a moment after
// the text or the view last changed, and at once when a text is loaded (a book
// opened); the word being typed is left alone until the cursor leaves it, as a
// spell checker does, but a word the cursor merely rests at is underlined.
import { RangeSetBuilder, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';

/** A misspelt word: UTF-16 offsets into the text that was checked. */
export type Misspelt = { from: number; to: number };
/** Check returns the misspelt words of a text. */
export type Check = (text: string) => Promise<Misspelt[]>;

const WAIT_MS = 350;
// aria-invalid="spelling" lets a screen reader say "misspelled", as it did with
// WebKit's own underlines.
const mark = Decoration.mark({ class: 'cm-misspelt', attributes: { 'aria-invalid': 'spelling' } });
const setMarks = StateEffect.define<DecorationSet>();

const marks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(set, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return e.value;
    return tr.docChanged ? set.map(tr.changes) : set;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** spellUnderline underlines the words check finds in the lines on screen. */
export function spellUnderline(check: Check): Extension {
  const plugin = ViewPlugin.fromClass(
    class {
      timer: ReturnType<typeof setTimeout> | undefined;
      asked = 0;
      // typing: the author is typing at the cursor (the last change was a key
      // there, and the cursor has not moved away since). Only then is the
      // word at the cursor left alone: a book opened (or a text loaded) with
      // the cursor after a misspelt word underlines it at once.
      typing = false;
      // failures: checks that failed in a row; a failed check is tried again
      // (a moment later, then less often), not left until the next change.
      failures = 0;
      constructor(readonly view: EditorView) {
        this.schedule();
      }
      update(u: ViewUpdate) {
        if (u.docChanged) this.typing = u.transactions.some((t) => t.isUserEvent('input') || t.isUserEvent('delete'));
        else if (u.selectionSet && !u.state.selection.eq(u.startState.selection)) this.typing = false;
        if (u.docChanged || u.viewportChanged || u.selectionSet) this.schedule();
      }
      schedule(wait = WAIT_MS) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.run(), wait);
      }
      async run() {
        const view = this.view;
        const ask = ++this.asked;
        const doc = view.state.doc;
        const ranges = view.visibleRanges.map((r) => ({ from: r.from, to: r.to, text: doc.sliceString(r.from, r.to) }));
        let found: Misspelt[][];
        try {
          found = await Promise.all(ranges.map((r) => (r.text.trim() ? check(r.text) : Promise.resolve([]))));
        } catch {
          // No underlines is better than an alert on every pause; the check
          // is tried again (1 s, 2 s, … up to 30 s apart) unless the text or
          // view changes first.
          if (ask === this.asked) this.schedule(Math.min(30_000, 1000 * 2 ** this.failures++));
          return;
        }
        this.failures = 0;
        // The text changed while the words were checked: the next run is due.
        if (ask !== this.asked || view.state.doc !== doc) return;
        const head = view.state.selection.main.head;
        const b = new RangeSetBuilder<Decoration>();
        ranges.forEach((r, i) => {
          for (const w of found[i]) {
            const from = r.from + w.from,
              to = r.from + w.to;
            if (to <= from || to > r.to || (this.typing && head >= from && head <= to)) continue;
            b.add(from, to, mark);
          }
        });
        view.dispatch({ effects: setMarks.of(b.finish()) });
      }
      destroy() {
        clearTimeout(this.timer);
      }
    },
  );
  return [
    marks,
    plugin,
    EditorView.baseTheme({
      '.cm-misspelt': { textDecoration: 'underline wavy #d4351c', textDecorationSkipInk: 'none', textUnderlineOffset: '3px' },
    }),
  ];
}
