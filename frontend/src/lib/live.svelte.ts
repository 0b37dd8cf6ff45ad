// The window's three ARIA live regions, created once at start (App.svelte):
// status (polite progress), alert (errors) and log (transcript lines). Any
// component announces through these functions, so a screen reader hears each
// thing once, from one place.

export const live = $state({
  status: '',
  alert: '',
  log: [] as { id: number; text: string }[],
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
  live.alert = '';
  live.status = text;
  if (live.speech && speak) speak(text);
}

/** fail shows an error in the alert region (read at once). */
export function fail(text: string) {
  // Re-setting the same text would not be announced again: clear it first.
  live.alert = '';
  queueMicrotask(() => {
    live.alert = text;
  });
}

/** clearError empties the alert region. */
export function clearError() {
  live.alert = '';
}

/** logLine appends a transcript line to the log region (the last 30 are kept). */
export function logLine(text: string) {
  live.log = [...live.log.slice(-29), { id: next++, text }];
  if (live.speech && speak) speak(text);
}
