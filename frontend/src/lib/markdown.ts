// The editor's Markdown: highlighting that costs what the lines on screen
// cost, whatever the length of the book, plus Enter continuing a list or a
// quote and a URL pasted over a selection made a link.
//
// @codemirror/lang-markdown's CommonMark parser re-walks every block of the
// book before the edit on each keystroke (its incremental parse reuses the
// blocks one by one): at the end of the 6 MB War and Peace that was ~110 ms
// of the web process's CPU a key in WebKitGTK (150 ms a key in all, 40 ms
// without it; build/a11y's typing with Orca measures it), which with Orca
// running fell behind the keys by up to 1.6 s. A line-by-line tokenizer
// (StreamLanguage) keeps its state at intervals: an edit re-reads from the
// nearest saved state to the end of the view, and a view far from the parsed
// part starts afresh there. The outline and everything else that needs the
// book's structure come from goldmark on the Go side, not from this.
import { LanguageSupport, StreamLanguage, type StreamParser, type StringStream } from '@codemirror/language';
import { EditorSelection, Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

interface State {
  /** front: 0 before the first line, 1 inside front matter, 2 past it. */
  front: number;
  /** fence: the fence of the code block the line is in ("```", "~~~~"), else ''. */
  fence: string;
  /** heading: this line's heading level (1–6), 0 for none. */
  heading: number;
  /** close: the marker that ends the open inline span, '' outside one. */
  close: string;
  /** span: the open span's token. */
  span: string;
  /** comment: inside <!-- … --> (it may run over lines). */
  comment: boolean;
}

const wordChar = /[\p{L}\p{N}]/u;

function lineStart(stream: StringStream, s: State): string | null {
  s.heading = 0;
  s.close = '';
  s.span = '';
  if (s.front === 0) {
    s.front = 2;
    if (stream.match(/^---\s*$/)) {
      s.front = 1;
      return 'meta';
    }
  } else if (s.front === 1) {
    if (stream.match(/^(---|\.\.\.)\s*$/)) s.front = 2;
    else stream.skipToEnd();
    return 'meta';
  }
  if (s.fence) {
    const f = stream.match(/^ {0,3}(`{3,}|~{3,})\s*$/) as RegExpMatchArray | null;
    if (f && f[1][0] === s.fence[0] && f[1].length >= s.fence.length) {
      s.fence = '';
      return 'mark';
    }
    stream.skipToEnd();
    return 'code';
  }
  const f = stream.match(/^ {0,3}(`{3,}|~{3,})/) as RegExpMatchArray | null;
  if (f) {
    s.fence = f[1];
    stream.skipToEnd();
    return 'mark';
  }
  const h = stream.match(/^ {0,3}(#{1,6})(?=[ \t]|$)/) as RegExpMatchArray | null;
  if (h) {
    s.heading = h[1].length;
    return 'mark';
  }
  // A thematic break, a setext heading's underline.
  if (stream.match(/^ {0,3}(?:([-*_])(?: *\1){2,}|=+|-+) *$/)) return 'mark';
  // Quote marks, then a list marker.
  if (stream.match(/^ {0,3}(?:> ?)+/)) return 'mark';
  if (stream.match(/^ *(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/)) return 'mark';
  return null;
}

function inline(stream: StringStream, s: State): string | null {
  if (s.comment) {
    const end = stream.string.indexOf('-->', stream.pos);
    if (end < 0) stream.skipToEnd();
    else {
      stream.pos = end + 3;
      s.comment = false;
    }
    return 'meta';
  }
  if (s.heading) {
    stream.skipToEnd();
    return `h${s.heading}`;
  }
  if (s.close) {
    if (stream.match(s.close)) {
      s.close = '';
      s.span = '';
      return 'mark';
    }
    const end = stream.string.indexOf(s.close, stream.pos);
    const span = s.span;
    if (end < 0) {
      stream.skipToEnd();
      s.close = '';
      s.span = '';
    } else stream.pos = end;
    return span;
  }
  const ch = stream.peek();
  if (ch === '\\') {
    stream.next();
    stream.next();
    return null;
  }
  if (stream.match('<!--')) {
    s.comment = true;
    return 'meta';
  }
  if (ch === '`' && stream.match(/^(`+)(?:(?!\1)[^])+?\1/)) return 'code';
  if (ch === '<' && stream.match(/^<(?:https?:|mailto:)[^\s<>]+>/)) return 'url';
  if (ch === '[' && stream.match(/^!?\[[^\]]*\]\([^)\s]*(?:\s+"[^"]*")?\)/)) return 'link';
  if (ch === '*' || ch === '_' || ch === '~') {
    const before = stream.pos > 0 ? stream.string[stream.pos - 1] : '';
    // An underscore inside a word (snake_case) opens nothing.
    if (ch !== '_' || !wordChar.test(before)) {
      const m = stream.match(/^(\*\*|__|~~)(?=\S(?:.*?\S)?\1)/) ?? stream.match(/^([*_])(?=[^\s*_](?:.*?[^\s\\])?\1)/);
      if (m) {
        const marker = (m as RegExpMatchArray)[1];
        s.close = marker;
        s.span = marker === '~~' ? 'strike' : marker.length === 2 ? 'strong' : 'em';
        return 'mark';
      }
    }
    stream.next();
    return null;
  }
  if (!stream.match(/^[^\\`<[*_~]+/)) stream.next();
  return null;
}

const parser: StreamParser<State> = {
  name: 'markdown',
  startState: () => ({ front: 0, fence: '', heading: 0, close: '', span: '', comment: false }),
  copyState: (s) => ({ ...s }),
  token(stream, s) {
    if (stream.sol()) {
      const tok = lineStart(stream, s);
      if (tok || stream.eol()) return tok;
    }
    return inline(stream, s);
  },
  blankLine(s) {
    if (s.front === 0) s.front = 2;
    s.heading = 0;
  },
  tokenTable: {
    mark: t.processingInstruction,
    meta: t.meta,
    code: t.monospace,
    strong: t.strong,
    em: t.emphasis,
    strike: t.strikethrough,
    link: t.link,
    url: t.url,
    h1: t.heading1,
    h2: t.heading2,
    h3: t.heading3,
    h4: t.heading4,
    h5: t.heading5,
    h6: t.heading6,
  },
  languageData: { commentTokens: { block: { open: '<!--', close: '-->' } } },
};

const language = StreamLanguage.define(parser);

/** continueMarkup: Enter in a list item or a quote starts the next one (the
 * number one up); Enter on an item with nothing after its marker ends the
 * list instead: the marker goes and a blank line follows the list. */
export function continueMarkup(view: EditorView): boolean {
  const { state } = view;
  const r = state.selection.main;
  if (state.readOnly || !r.empty || state.selection.ranges.length > 1) return false;
  const line = state.doc.lineAt(r.head);
  const m = /^( {0,3}(?:> ?)*)(?:( *)([-*+])|( *)(\d{1,9})([.)]))?( +)/.exec(line.text);
  if (!m || (!m[3] && !m[5] && !m[1].includes('>'))) return false;
  const marker = m[0];
  if (r.head < line.from + marker.length) return false;
  if (line.text.slice(marker.length).trim() === '') {
    // A blank line ends the list (the next line would be part of the item).
    view.dispatch({
      changes: { from: line.from, to: line.to, insert: state.lineBreak },
      selection: EditorSelection.cursor(line.from + state.lineBreak.length),
      userEvent: 'input',
    });
    return true;
  }
  const next = m[5] ? `${m[1]}${m[4]}${Number(m[5]) + 1}${m[6]}${m[7]}` : marker;
  const insert = state.lineBreak + next;
  view.dispatch({
    changes: { from: r.head, insert },
    selection: EditorSelection.cursor(r.head + insert.length),
    scrollIntoView: true,
    userEvent: 'input',
  });
  return true;
}

/** A URL pasted over a selection makes the selection a link to it. */
const pasteURLAsLink = EditorView.domEventHandlers({
  paste(ev, view) {
    const url = ev.clipboardData?.getData('text/plain').trim() ?? '';
    const r = view.state.selection.main;
    if (r.empty || view.state.selection.ranges.length > 1 || !/^(?:https?:\/\/|mailto:)\S+$/.test(url)) return false;
    const text = view.state.sliceDoc(r.from, r.to);
    const insert = `[${text}](${url})`;
    view.dispatch({ changes: { from: r.from, to: r.to, insert }, selection: EditorSelection.cursor(r.from + insert.length), userEvent: 'input.paste' });
    ev.preventDefault();
    return true;
  },
});

export function markdown(): LanguageSupport {
  return new LanguageSupport(language, [Prec.high(keymap.of([{ key: 'Enter', run: continueMarkup }])), pasteURLAsLink]);
}
