// The window's three ARIA live regions, present from the start (App.svelte):
// status (polite progress), alert (errors) and log (transcript lines). Any
// component announces through these functions, so a screen reader hears each
// thing once, from one place.
//
// Each message is a new element (a <p> keyed by its id), never new text in an
// old one: WebKitGTK tells AT-SPI (and so Orca) about an element added to a
// live region (object:children-changed:add) but says nothing when only the
// text of a node changes. A new id also makes the same words heard again.

export type Message = { id: number; text: string };

export const live = $state({
  status: null as Message | null,
  alert: null as Message | null,
  log: [] as Message[],
  speech: false,
});

let next = 1;
let speak: ((text: string) => void) | null = null;

/** setSpeaker gives the optional speech output (off by default). */
export function setSpeaker(fn: ((text: string) => void) | null) {
  speak = fn;
}

/** announce says a short progress line politely (the status region). An
 * error shown before it is over: the next thing that goes well clears it (a
 * failure that follows at once, in the same task, still shows, see fail). */
export function announce(text: string) {
  live.alert = null;
  live.status = { id: next++, text };
  if (live.speech && speak) speak(text);
}

/** fail shows an error in the alert region (read at once). It is set after
 * the current task, so a progress line announced in the same task does not
 * clear it. */
export function fail(text: string) {
  const m = { id: next++, text };
  queueMicrotask(() => {
    live.alert = m;
  });
}

/** clearError empties the alert region. */
export function clearError() {
  live.alert = null;
}

/** logLine appends a transcript line to the log region (the last 30 are kept). */
export function logLine(text: string) {
  live.log = [...live.log.slice(-29), { id: next++, text }];
  if (live.speech && speak) speak(text);
}
