// What the panels of the manuscript workspace share. Manuscript.svelte holds
// the editor and the revision it shows; each panel (a component of its own)
// reaches them through a Host, so that no panel touches the editor's state
// behind the workspace's back.

import type { OutlineHeading } from '../bindings';

/** Host is what a panel asks of the manuscript workspace. */
export interface Host {
  /** flush saves what was typed (autosave); every action that reads or
   * changes the book waits for it first. */
  flush(): Promise<void>;
  /** sync brings the editor to the backend's newest revision. */
  sync(): Promise<void>;
  /** revision is the revision the editor holds. */
  revision(): number;
  /** jump selects from..to (UTF-16 positions) and scrolls it into view; with
   * the focus (the default) it moves the focus to the text and says where it
   * landed (a screen reader says nothing when the focus comes back to the
   * text it was in). */
  jump(from: number, to?: number, focus?: boolean): void;
  /** cursor is the editor's caret position. */
  cursor(): number;
  /** setEditable makes the text read-only while a command changes it. */
  setEditable(on: boolean): void;
  /** show brings a panel of the side column to the front. */
  show(panel: string): void;
  /** note puts one line in the status bar and says it (no dialog, no focus
   * taken): "Another program changed “III”; your text is kept." */
  note(text: string): void;
  /** selection is the text selected in the editor ("" when none). */
  selection(): string;
  /** mark marks the find bar's matches in the text, the current one apart. */
  mark(ranges: { from: number; to: number }[], current: number): void;
  /** focusText gives the focus to the text. */
  focusText(): void;
  /** where says where pos (else the cursor) is: the headings around it and
   * the line («Том 1, Часть первая, VIII, line 3»). */
  where(pos?: number): string;
}

/** size says a file's size in bytes, KB or MB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// One formatter for every count (toLocaleString builds one per call: the
// outline of a novel has hundreds of counts).
const numbers = new Intl.NumberFormat('en');

/** fmt writes a count with thousands separators. */
export const fmt = (n: number) => numbers.format(n);

/** place says where pos is, as an author reads it: the headings it is under,
 * outermost first, and its line counted from the nearest heading above it,
 * whose own line is line 1 («Том 1, Часть первая, VIII, line 3»). lineOf
 * gives the editor's line number of a position. */
export function place(headings: OutlineHeading[], pos: number, lineOf: (pos: number) => number): string {
  let k = -1;
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i];
    if (h.pos >= 0 && h.pos <= pos) k = i;
    else if (h.pos > pos) break;
  }
  if (k < 0) return `Line ${fmt(lineOf(pos))}, before the first heading`;
  const path: string[] = [];
  let level = Infinity;
  for (let i = k; i >= 0 && level > 1; i--) {
    if (headings[i].level < level) {
      path.unshift(headings[i].text);
      level = headings[i].level;
    }
  }
  return `${path.join(', ')}, line ${fmt(lineOf(pos) - lineOf(headings[k].pos) + 1)}`;
}
