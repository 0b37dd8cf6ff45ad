// The window's own words in English and Russian: one catalogue, each key
// with both languages side by side (TypeScript refuses an entry without
// both; the UI tier checks that none is empty). The language is the one
// chosen in Settings, else the system locale's (the backend's Language).
// Everything the window says by itself (the find bar, the panels, History,
// undo, notices) is in it, whatever the book's language; only the answers to
// a command stay in the command's language (manuscript/workspace.ts, say).

import { messages, ne, nr, type Messages } from './messages';

export type Lang = 'en' | 'ru';

/** locale is the window's language now; changing it redraws the chrome. */
export const locale = $state({ lang: 'en' as Lang, system: 'en' as Lang });

function side(i: 0 | 1): Messages {
  return Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, v[i]])) as Messages;
}
const en = side(0);
const ru = side(1);
// For the UI tier: both sides of every key.
(window as unknown as { waymarkMessages: { en: Messages; ru: Messages } }).waymarkMessages = { en, ru };

/** t is the catalogue in the window's language. */
export function t(): Messages {
  return locale.lang === 'ru' ? ru : en;
}

/** tIn is the catalogue in a command's language (russian): an answer to a
 * command names the buttons and keys in the language of its sentence,
 * never the window's in the middle of it. */
export function tIn(russian: boolean): Messages {
  return russian ? ru : en;
}

/** uiRussian tells whether the window speaks Russian. */
export function uiRussian(): boolean {
  return locale.lang === 'ru';
}

/** setLanguage switches the window's words (and the page's lang, which a
 * screen reader picks its voice by). */
export function setLanguage(lang: string, system: string = locale.system) {
  locale.system = system === 'ru' ? 'ru' : 'en';
  locale.lang = lang === 'ru' ? 'ru' : 'en';
  document.documentElement.lang = locale.lang;
}

/** count writes a number as the window's language does (1,234 / 1 234). */
export function count(n: number): string {
  return locale.lang === 'ru' ? nr(n) : ne(n);
}

/** quote puts a name in the window language's quotation marks. */
export function quote(s: string): string {
  return locale.lang === 'ru' ? `«${s}»` : `“${s}”`;
}
