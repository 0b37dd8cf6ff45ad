import type { DesktopApp, LayoutReport, Method, Settings, ToolName, Tools } from './tools.gen';

// Every type the window exchanges with Go is generated from the Go types
// (tools.gen.ts, by cmd/waymark-tsgen): the tools' arguments and results
// (Tools) and the bound methods of the window (DesktopApp, desktop.App).
export type * from './tools.gen';

// The Go services bound to the window (window.go.main.DesktopApp, put there by
// Wails; in the UI tier by a shim that forwards each call over HTTP to the same
// Go code) and Wails' runtime events. Every call returns a promise; a Go error
// rejects it with the error's message.

type Bound = Record<string, (...args: unknown[]) => Promise<unknown>>;

declare global {
  interface Window {
    go?: { main?: { DesktopApp?: Bound; DevGate?: { Invoke: (token: string, method: string, args: unknown[]) => Promise<unknown> } } };
    runtime?: {
      EventsOn: (name: string, cb: (...data: unknown[]) => void) => () => void;
      EventsOff?: (name: string) => void;
      WindowSetTitle?: (title: string) => void;
    };
  }
}

function app(): Bound {
  const a = window.go?.main?.DesktopApp;
  if (a) return a;
  const gate = window.go?.main?.DevGate;
  if (gate) return devApp(gate);
  throw new Error('The Waymark backend is not connected (window.go.main.DesktopApp is missing).');
}

/** The dev build binds DevGate alone: each call carries the per-run token,
 * which the dev build serves to its own pages only (Wails' own dev server
 * answers any page that finds its port). */
let devToken: Promise<string> | undefined;
function devApp(gate: { Invoke: (token: string, method: string, args: unknown[]) => Promise<unknown> }): Bound {
  devToken ??= fetch('/waymark/dev-token', { cache: 'no-store' }).then(async (r) => {
    if (!r.ok) throw new Error(`the dev build's token could not be read: ${(await r.text()).trim() || r.statusText}`);
    return r.text();
  });
  return new Proxy({} as Bound, {
    get: (_t, method: string) => async (...args: unknown[]) => gate.Invoke(await devToken!, method, args),
  });
}

/** call runs a bound method with the arguments and result its Go types give. */
async function call<M extends Method>(method: M, ...args: Parameters<DesktopApp[M]>): Promise<Awaited<ReturnType<DesktopApp[M]>>> {
  try {
    return (await app()[method](...args)) as Awaited<ReturnType<DesktopApp[M]>>;
  } catch (e) {
    throw new Error(errorText(e));
  }
}

/** errorText turns whatever a rejected call carries into one readable line. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** textPath is where the backend serves the open manuscript's text: a plain
 * HTTP body reaches the page far faster than a 6 MB string in a bound call. */
export const textPath = '/waymark/text';

/** fetchText reads the manuscript's text and the revision it is at, zipped
 * where the page can unzip it; the first call takes the request index.html
 * started while the script was loading. */
export async function fetchText(url: string = textPath): Promise<{ text: string; revision: number }> {
  const w = window as unknown as { __waymarkText?: Promise<Response> };
  const early = url === textPath ? w.__waymarkText : undefined;
  w.__waymarkText = undefined;
  const zip = 'DecompressionStream' in window;
  const r = await (early ?? fetch(zip ? `${url}${url.includes('?') ? '&' : '?'}encoding=gzip` : url, { cache: 'no-store' }));
  if (!r.ok) throw new Error(`the manuscript's text could not be read: ${(await r.text()).trim() || r.statusText}`);
  const revision = Number(r.headers.get('X-Waymark-Revision'));
  if (!Number.isFinite(revision) || revision <= 0) throw new Error("the manuscript's text came without its revision");
  // The backend's text never holds the file's byte-order mark (it stays on disk,
  // outside the text); a U+FEFF that is text must stay, so decoding keeps it —
  // Response.text() and a default TextDecoder would drop it and shift every
  // offset after it by one.
  const decode = (b: BufferSource) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
  if (r.headers.get('X-Waymark-Encoding') !== 'gzip' || !r.body) return { text: decode(await r.arrayBuffer()), revision };
  // Unzipped into one buffer and decoded once: far faster in WebKit than
  // letting a Response gather the stream's chunks into text.
  const rd = r.body.pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    parts.push(value);
    n += value.length;
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return { text: decode(all), revision };
}

/** on subscribes to a backend event; it returns the unsubscribe function. */
export function on(name: string, cb: (data: unknown) => void): () => void {
  if (!window.runtime?.EventsOn) return () => {};
  return window.runtime.EventsOn(name, (...d: unknown[]) => cb(d[0]));
}

export const api = {
  manuscript: () => call('Manuscript'),
  manuscriptInfo: () => call('ManuscriptInfo'),
  openManuscript: (path: string) => call('OpenManuscript', path),
  chooseManuscript: () => call('ChooseManuscript'),
  newManuscript: (path: string, title: string) => call('NewManuscript', path, title),
  chooseSavePath: (title: string, name: string) => call('ChooseSavePath', title, name),
  recentFiles: () => call('RecentFiles'),
  outline: () => call('Outline'),
  sync: (rev: number) => call('Sync', rev),
  typeEdit: (rev: number, from: number, to: number, text: string) => call('TypeEdit', rev, from, to, text),
  runCommand: (cmd: string) => call('RunCommand', cmd),
  undoEdit: (rev: number) => call('UndoEdit', rev),
  stop: () => call('Stop'),
  painted: (name: string, chars: number) => call('Painted', name, chars),
  phase: (name: string) => void call('Phase', name).catch(() => {}),
  layout: (r: LayoutReport) => call('Layout', r),
  transcript: (kind: string) => call('Transcript', kind),
  saveDocumentSession: (state: string) => call('SaveDocumentSession', state),
  search: (query: string) => call('Search', query),
  readPortion: (restart: boolean) => call('ReadPortion', restart),
  itemAt: (pos: number) => call('ItemAt', pos),
  targetSets: () => call('TargetSets'),
  targetSet: (id: string) => call('TargetSet', id),
  history: () => call('History'),
  checkDisk: () => call('CheckDisk'),
  resolveExternal: (choice: string) => call('ResolveExternalChange', choice),
  settings: () => call('Settings'),
  saveSettings: (s: Settings) => call('SaveSettings', s),
  testConnection: (url: string, model: string, key: string) => call('TestConnection', url, model, key),
  serverModels: (url: string, key: string) => call('ServerModels', url, key),
  capabilities: () => call('Capabilities'),
  language: () => call('Language'),
  say: (text: string) => call('Say', text),
  browserCommand: (text: string) => call('BrowserCommand', text),
  browserAct: (n: number, action: string, text: string) => call('BrowserAct', n, action, text),
  browserRefresh: () => call('BrowserRefresh'),
  browserAnswerDialog: (accept: boolean, text: string) => call('BrowserAnswerDialog', accept, text),
  browserGoal: (goal: string) => call('BrowserGoal', goal),
  browserAnswer: (answer: string) => call('BrowserAnswer', answer),
  browserSession: () => call('BrowserSessionState'),
  /** tool runs a tool of the registry (the same tools as the model, MCP and
   * the CLI), with the arguments and the result its Go types give (Tools,
   * generated by cmd/waymark-tsgen). */
  tool: async <K extends ToolName>(name: K, args: Tools[K]['input']): Promise<Tools[K]['output']> =>
    JSON.parse(await call('Call', name, JSON.stringify(args))) as Tools[K]['output'],
};
