// What the panels of the manuscript workspace share. Manuscript.svelte holds
// the editor and the revision it shows; each panel (a component of its own)
// reaches them through a Host, so that no panel touches the editor's state
// behind the workspace's back.

import type { OutlineHeading } from '../bindings';
import { uiRussian } from '../i18n.svelte';

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

/** size says a file's size in bytes, KB or MB, in the window's language. */
export function size(bytes: number): string {
  const ru = uiRussian();
  if (bytes < 1024) return ru ? `${bytes} байт` : `${bytes} bytes`;
  const n = (x: number) => (ru ? x.toFixed(1).replace('.', ',') : x.toFixed(1));
  if (bytes < 1024 * 1024) return `${n(bytes / 1024)} ${ru ? 'КБ' : 'KB'}`;
  return `${n(bytes / (1024 * 1024))} ${ru ? 'МБ' : 'MB'}`;
}

// One formatter for every count (toLocaleString builds one per call: the
// outline of a novel has hundreds of counts).
const numbers = new Intl.NumberFormat('en');

/** fmt writes a count with thousands separators. */
export const fmt = (n: number) => numbers.format(n);

/** timing is how long the workspace waits (milliseconds): pause, a pause in
 * typing that ends the open typing group and saves what was typed (wherever
 * the last key was: in a word or after it); maxUnsaved, how long typing that
 * never pauses waits to be saved; the look for changes made elsewhere
 * (diskCheck, 0: none); and how often typing that goes on unsaved tells the
 * other doors again where it is (note: under the backend's 20 s). The UI
 * tier sets it (window.waymarkTiming) to take timing out of its tests. */
export const timing = { pause: 2000, maxUnsaved: 30000, diskCheck: 3000, note: 10000 };
(window as unknown as { waymarkTiming: typeof timing }).waymarkTiming = timing;

/** book is the open book's language. The window says nothing in it by
 * itself (its own lines are in the window's language, say); it is only the
 * language of the edits an approved plan made, which the backend describes
 * in the book's language (EditsReview). */
export const book = { russian: false };

/** isRussian tells a book's language as the backend does: most letters of its
 * first pages are Cyrillic. */
export function isRussian(text: string): boolean {
  let cyr = 0,
    lat = 0;
  for (const c of text.slice(0, 8192)) {
    if (/\p{Script=Cyrillic}/u.test(c)) cyr++;
    else if (/[A-Za-z]/.test(c)) lat++;
  }
  return cyr > lat;
}

/** commandIsRussian tells a command's language as the backend does
 * (author.ParseCommand): its own words, quotes aside, are mostly Cyrillic, or
 * it has only quoted words and they are Russian. What the window says about
 * a command is in its language; the result tells it too (russian). */
export function commandIsRussian(cmd: string): boolean {
  const own = cmd.replace(/«[^»]*»?|"[^"]*"?|“[^”]*”?|„[^“”]*[“”]?/gu, ' ');
  return /[A-Za-z\p{Script=Cyrillic}]/u.test(own) ? isRussian(own) : /\p{Script=Cyrillic}/u.test(cmd);
}

/** say picks the line in the window's language (what the window says by
 * itself: the find bar, the panels, the place), or in the language given
 * (an answer to a command: the command's, russian). */
export function say(en: string, ru: string, russian = uiRussian()): string {
  return russian ? ru : en;
}

/** plural picks the Russian noun form for n: one (1, 21), few (2–4, 22–24),
 * many (5–20, 25…), as the backend's Russian answers do. */
export function plural(n: number, one: string, few: string, many: string): string {
  const m = Math.abs(n) % 100;
  if (m % 10 === 1 && m !== 11) return one;
  if (m % 10 >= 2 && m % 10 <= 4 && (m < 12 || m > 14)) return few;
  return many;
}

/** ruCount says n things in Russian, the number as the Russian answers
 * write it (plainly: «1483 упоминания»). */
export function ruCount(n: number, one: string, few: string, many: string): string {
  return `${n} ${plural(n, one, few, many)}`;
}

/** num writes a number in a sentence of the window's language (or the one given). */
export function num(n: number, russian = uiRussian()): string {
  return russian ? String(n) : fmt(n);
}

/** quoted puts a name or a quote in the quotation marks of the window's
 * language (or the one given). */
export function quoted(s: string, russian = uiRussian()): string {
  return russian ? `«${s}»` : `“${s}”`;
}

/** place says where pos is, as an author reads it: the headings it is under,
 * outermost first, and its line counted from the nearest heading above it,
 * whose own line is line 1 ("BOOK ONE: 1805, CHAPTER VIII, line 3"), in the
 * window's language («Том 1, Часть первая, VIII, строка 3»). lineOf gives the
 * editor's line number of a position. */
export function place(headings: OutlineHeading[], pos: number, lineOf: (pos: number) => number): string {
  let k = -1;
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i];
    if (h.pos >= 0 && h.pos <= pos) k = i;
    else if (h.pos > pos) break;
  }
  if (k < 0) return say(`Line ${fmt(lineOf(pos))}, before the first heading`, `Строка ${lineOf(pos)}, до первого заголовка`);
  const path: string[] = [];
  let level = Infinity;
  for (let i = k; i >= 0 && level > 1; i--) {
    if (headings[i].level < level) {
      path.unshift(headings[i].text);
      level = headings[i].level;
    }
  }
  const line = lineOf(pos) - lineOf(headings[k].pos) + 1;
  return `${path.join(', ')}, ${say(`line ${fmt(line)}`, `строка ${line}`)}`;
}

// What each step of a command does, in the author's words: the transcript
// names no tools (their raw JSON stays behind its "details" toggle).
const steps: Record<string, [string, string]> = {
  Read: ['Reading the text', 'Чтение текста'],
  ReplaceText: ['Changing a paragraph', 'Правка абзаца'],
  InsertAfter: ['Adding a paragraph', 'Вставка абзаца'],
  InsertBefore: ['Adding a paragraph', 'Вставка абзаца'],
  Delete: ['Deleting a paragraph', 'Удаление абзаца'],
  ReplaceAll: ['Replacing throughout', 'Замена по всей книге'],
  DeleteAll: ['Deleting throughout', 'Удаление по всей книге'],
  Undo: ['Undoing', 'Отмена'],
  Redo: ['Redoing', 'Повтор'],
  Find: ['Searching', 'Поиск'],
  Outline: ['Reading the outline', 'Чтение оглавления'],
  History: ['Reading the history', 'Чтение истории'],
  RestoreRevision: ['Restoring a version', 'Возврат версии'],
  Export: ['Exporting', 'Экспорт'],
  CreateCursor: ['Going through the book', 'Проход по книге'],
  CursorNext: ['Going through the book', 'Проход по книге'],
  RunCursorAgent: ['Reading the book for the command', 'Чтение книги для команды'],
  RunCommand: ['Carrying out the command', 'Выполнение команды'],
  Characters: ['Finding the people', 'Поиск персонажей'],
  Spelling: ['Checking the spelling', 'Проверка орфографии'],
  TypeText: ['Typing', 'Набор текста'],
};

/** stepName says what a command's step (a tool) does, in the command's
 * language (russian; else the window's); a step not named here is a set, a
 * plan or another task. */
export function stepName(tool = '', russian = uiRussian()): string {
  const s = steps[tool];
  if (s) return say(s[0], s[1], russian);
  if (tool.startsWith('TargetSet')) return say('Working with a set', 'Работа с набором', russian);
  if (tool.startsWith('Plan')) return say('Working with the plan', 'Работа с планом', russian);
  return say('A step', 'Шаг', russian);
}

/** focusField moves the focus into a text field a hotkey goes to (the command
 * field, the replace field) so that Orca 43 names it. WebKitGTK may tell the
 * screen reader of a field's caret (text-caret-moved) before its focus; Orca
 * 43's WebKitGTK script then takes the caret for the focus (it silently makes
 * the field its caret context), drops the focus event as one it already has,
 * and says the text's selection left behind instead ("Text unselected.").
 * WebKitGTK tells no caret at all for an empty field whose text was set by
 * the page, not typed: a field emptied by typing (Ctrl+A, Backspace) had its
 * caret told first whenever the same key press showed its panel (3 of 3 in
 * the tier, 12 of 12 in an event probe), so an empty field's text is set
 * anew first (none told since, 6 of 6). The caret of a field holding text is
 * told at once only when the field's layout is up to date; with its layout
 * pending (one property of its style set anew) the focus is told first (a
 * field made by the same key press, Ctrl+H's, is laid out first so that its
 * layout is pending the same way). */
export function focusField(el: HTMLInputElement | undefined) {
  if (!el) return;
  if (el.value === '') {
    // Set, not typed: the same value set again changes nothing in WebKit.
    el.value = ' ';
    el.value = '';
  }
  void el.getBoundingClientRect();
  el.style.minWidth = el.style.minWidth === '1px' ? '0px' : '1px';
  el.focus();
}

/** showDialog opens a modal dialog that has the autofocus attribute (so
 * showModal focuses the dialog itself, a panel Orca 43 passes over in
 * silence) and moves the focus to its field el after the next frame, at
 * whose end WebKitGTK tells the dialog's own focus (deferred until the
 * dialog is laid out); a text field is focused by focusField, its layout
 * pending, so that its focus is told before its caret. Focused by showModal
 * itself, in the same task, the field's focus was deferred (its renderer was
 * new) and WebKitGTK sometimes told its caret (text-caret-moved) first; Orca
 * 43's WebKitGTK script then made the field its caret context silently and
 * dropped the focus event as one it had: the Open dialog's empty path field
 * went unsaid in 2 and 6 of 24 Ctrl+O's (docs/window.md, "Dialogs and
 * Orca"). Focused with its layout up to date instead, its caret still came
 * first in 1 of 166; focused before the frame's end, its focus joined the
 * dialog's deferred one (2 of 120). The fallback, for a window whose frames
 * are held back, waits 1 s. Nothing is focused if the dialog closed, or the
 * focus left the dialog, meanwhile. */
export function showDialog(dialog: HTMLDialogElement, el: () => HTMLElement | null | undefined) {
  if (!dialog.open) dialog.showModal();
  let done = false;
  const focus = () => {
    if (done) return;
    done = true;
    dialog.removeEventListener('keydown', early, true);
    const f = el();
    if (!f || !dialog.open || document.activeElement !== dialog) return;
    if (f instanceof HTMLInputElement) focusField(f);
    else f.focus();
  };
  // A key typed before the field has the focus (an author who types the
  // path at once after Ctrl+O) moves the focus there now, in its keydown, so
  // that the character lands in the field (the engine sends the key's input
  // to the element focused after keydown), never lost on the dialog.
  const early = (ev: KeyboardEvent) => {
    if (ev.target === dialog && ev.key.length === 1 && !ev.altKey && !ev.metaKey) focus();
  };
  dialog.addEventListener('keydown', early, true);
  requestAnimationFrame(() => setTimeout(focus, 0));
  setTimeout(focus, 1000);
}

/** firstTextLine is where a book opened for the first time starts: its first
 * line holding text, past the empty lines before it (within its first 64 KB).
 * The focus comes to the text as a book opens, and Orca 43 reads the line
 * at the cursor then, or, when that line is empty, the whole text on screen
 * (its WebKitGTK script's getTextLineAtCaret): the English War and Peace
 * begins with an empty line, and 821 characters of it were read out. */
export function firstTextLine(text: string): number {
  const m = /^(?:[ \t]*\r?\n)+/.exec(text.slice(0, 65536));
  return m ? m[0].length : 0;
}
