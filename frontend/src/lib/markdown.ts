// The editor's Markdown language: CommonMark highlighting, Enter continuing a
// list or a quote, Backspace taking its marker back, and a pasted URL over a
// selection made a link. @codemirror/lang-markdown's markdown() adds HTML
// (and through it CSS and JavaScript) for tags and code blocks inside the
// text: some 250 KB of script a novel's manuscript does not use, that the
// window would parse before its first paint. Inline HTML stays highlighted
// as one tag, as the CommonMark parser gives it.
import { commonmarkLanguage, markdownKeymap, pasteURLAsLink } from '@codemirror/lang-markdown';
import { LanguageSupport } from '@codemirror/language';
import { Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';

export function markdown(): LanguageSupport {
  return new LanguageSupport(commonmarkLanguage, [Prec.high(keymap.of(markdownKeymap)), pasteURLAsLink]);
}
