// The window's three ARIA live regions, present from the start (App.svelte):
// status (polite progress), alert (errors) and log (transcript lines). Any
// component announces through these functions, so a screen reader hears each
// thing once, from one place.
//
// Each message is a new element (a <p> keyed by its id), never new text in an
// old one: WebKitGTK tells AT-SPI (and so Orca) about an element added to a
// live region (object:children-changed:add) but says nothing when only the
// text of a node changes. A new id also makes the same words heard again.
//
// Orca 43 (Debian 12) reads no live region of a WebKitGTK page at all. So every
// message is also said through the backend (DesktopApp.Say): the window's native
// notice, which Orca speaks when it is shown (app/screenreader_gtk.go), and
// spd-say when the author turned speech on. What one action announces arrives
// within a few tens of milliseconds (a command's "Running…", its answer, its
// transcript line, an error); said one by one, each would cut off the one
// before. They are gathered into one utterance instead (see utterance).

export type Message = { id: number; text: string };

export const live = $state({
  status: null as Message | null,
  alert: null as Message | null,
  log: [] as Message[],
});

let next = 1;

type Kind = 'progress' | 'status' | 'alert' | 'log';
type Part = { kind: Kind; text: string };

/** SETTLE_MS: a moment's messages are said once none came for this long; a
 * stream of them is said at least every MAX_WAIT_MS. A progress line alone
 * waits PROGRESS_MS: what is done by then is said instead. */
export const SETTLE_MS = 120;
const MAX_WAIT_MS = 400;
const PROGRESS_MS = 800;

let say: ((text: string) => void) | null = null;
let parts: Part[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let first = 0;

/** setSayer gives where the gathered utterances go (App.svelte: the backend). */
export function setSayer(fn: ((text: string) => void) | null) {
  say = fn;
}

function queue(kind: Kind, text: string) {
  text = text.trim();
  if (!text) return;
  // What follows a progress line not yet said replaces it ("Running: …" when
  // the answer came at once).
  if (kind !== 'log') parts = parts.filter((p) => p.kind !== 'progress');
  parts.push({ kind, text });
  const now = Date.now();
  if (!timer) first = now;
  clearTimeout(timer);
  const wait = parts.every((p) => p.kind === 'progress') ? PROGRESS_MS : Math.min(SETTLE_MS, first + MAX_WAIT_MS - now);
  timer = setTimeout(flush, Math.max(0, wait));
}

function flush() {
  timer = undefined;
  const u = utterance(parts);
  parts = [];
  if (u && say) say(u);
}

/** utterance joins a moment's messages into what is said: in order, each once
 * (a transcript line that repeats a progress line or an error is left out),
 * every one ending as a sentence. */
export function utterance(ps: Part[]): string {
  const said = ps.filter((p) => p.kind !== 'log').map((p) => p.text);
  const out: string[] = [];
  for (const p of ps) {
    if (p.kind === 'log' && said.some((s) => p.text.includes(s) || s.includes(p.text.replace(/^Waymark:\s*/, '')))) continue;
    if (out.includes(p.text)) continue;
    out.push(p.text);
  }
  return out.map(sentence).join(' ');
}

/** announce says a short line politely (the status region): a result, a
 * count, a state change. An error shown before it is over: the next thing
 * that goes well clears it (a failure that follows at once, in the same task,
 * still shows, see fail). */
export function announce(text: string) {
  live.alert = null;
  live.status = { id: next++, text };
  queue('status', text);
}

/** progress announces that something has begun ("Running: …", "Opening…"):
 * shown at once, but not said when its outcome follows within a moment. */
export function progress(text: string) {
  live.alert = null;
  live.status = { id: next++, text };
  queue('progress', text);
}

/** sentence ends text with a full stop unless it ends a sentence already (no
 * double period after a quotation or an abbreviation). */
export function sentence(text: string): string {
  const t = text.trim();
  return !t || /[.!?…]["»”)]?$/u.test(t) ? t : `${t}.`;
}

/** fail shows an error in the alert region (read at once). It is set after
 * the current task, so a progress line announced in the same task does not
 * clear it. */
export function fail(text: string) {
  const m = { id: next++, text };
  queueMicrotask(() => {
    live.alert = m;
  });
  queue('alert', text);
}

/** showError shows an error without saying it (an error of the speech itself). */
export function showError(text: string) {
  live.alert = { id: next++, text };
}

/** clearError empties the alert region. */
export function clearError() {
  live.alert = null;
}

/** logLine appends a transcript line to the log region (the last 30 are
 * kept), and says it unless say is false (what the action's own announce
 * will say in full: said now too, it would be heard twice). */
export function logLine(text: string, say = true) {
  live.log = [...live.log.slice(-29), { id: next++, text }];
  if (say) queue('log', text);
}
