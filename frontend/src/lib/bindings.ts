import type {
  AssistantResult,
  DiskState,
  ExternalResult,
  ProbeReport,
  ModelList,
  RevisionInfo,
  RunCommandResult,
  TargetSetSummary,
} from './tools.gen';

// The tools' result types are generated from the Go types of the registry
// (tools.gen.ts, by cmd/waymark-tsgen); the window's own types are here.
export type * from './tools.gen';

// The Go services bound to the window (window.go.main.DesktopApp, put there by
// Wails; in the UI tier by a shim that forwards each call over HTTP to the same
// Go code) and Wails' runtime events. Every call returns a promise; a Go error
// rejects it with the error's message.

export interface OutlineHeading {
  index: number;
  level: number;
  text: string;
  words: number;
  ownWords: number;
  label: string;
  pos: number;
}

export interface OutlineView {
  revision: number;
  headings: OutlineHeading[];
  totalWords: number;
  todayWords: number;
  items: number;
}

export interface RecentFile {
  path: string;
  name: string;
  exists: boolean;
}

export interface ManuscriptView {
  path: string;
  name: string;
  markdown: string;
  /** where to fetch the text when markdown is empty (ManuscriptInfo, OpenManuscript) */
  textURL?: string;
  sizeBytes: number;
  items: number;
  revision: number;
  outline: OutlineView;
  headings: OutlineHeading[];
  totalWords: number;
  session: string;
  recent: RecentFile[];
}

export interface SyncResult {
  revision: number;
  full: boolean;
  markdown?: string;
  from: number;
  to: number;
  insert: string;
  summary?: string;
}

/** EditorChange: UTF-16 units [fromUtf16, toUtf16) of the editor's text become insert (manuscript.EditorChange). */
export interface EditorChange {
  fromUtf16: number;
  toUtf16: number;
  insert: string;
}

/** Conflict: the paragraph typed in was changed elsewhere; both versions (manuscript.Conflict). */
export interface Conflict {
  heading: string;
  theirs: string;
  mine: string;
  byteOffset: number;
  utf16Offset: number;
}

/** Merge: a change taken in from another door or program (manuscript.Merge). */
export interface Merge {
  revision: number;
  heading: string;
  outside: boolean;
}

export interface TypeResult {
  revision: number;
  summary: string;
  /** what others changed meanwhile, for the editor's text with the typing */
  changes: EditorChange[];
  /** one line to show: "Another program changed “III”; your text is kept." */
  note?: string;
  conflict?: Conflict;
}

export interface SearchMatch {
  index: number;
  label: string;
  snippet: string;
  from: number;
  to: number;
}

export interface SearchResult {
  query: string;
  count: number;
  matches: SearchMatch[];
}

export interface PortionItem {
  index: number;
  label: string;
  type: string;
  text: string;
  pos: number;
}

export interface Portion {
  cursorName: string;
  items: PortionItem[];
  hasMore: boolean;
}

export interface TargetSetItem {
  index: number;
  label: string;
  snippet: string;
  pos: number;
}

export interface TargetSetView {
  targetSetId: string;
  name: string;
  items: TargetSetItem[];
  deleted: { label: string; quote?: string; why?: string; deletedInRevision: number }[];
}

export interface Settings {
  modelUrl: string;
  model: string;
  modelKey: string;
  modelKeySet: boolean;
  clearModelKey: boolean;
  /** where the key is kept: "keyring", "database" (no Secret Service) or "" */
  modelKeyStore: string;
  /** says so in words when the key is not in the keyring */
  modelKeyNote?: string;
  /** the server (scheme://host:port) the stored key was given for: it is sent there only */
  modelKeyOrigin?: string;
  commandTimeLimitMin: number;
  bannersEnabled: boolean;
  bannerPasses: number;
  bannerBudgetMs: number;
  bannerPassMs: number;
  pauseMs: number;
  iterationLimit: number;
  askTimeoutSec: number;
  downloadDir: string;
  downloadConflict: string;
  speech: boolean;
  theme: string;
  fontSize: number;
  author: string;
}

export interface Capabilities {
  model: string;
  builtin: boolean;
  modelFromEnv: boolean;
  pandoc: string;
  speech: string;
  formats: string[];
  nativeDialogs: boolean;
  browser: boolean;
  commands: string;
  browseCommands: string;
  /** the window reports its layout after each resize (WAYMARK_LAYOUT_REPORT=1) */
  layoutReport?: boolean;
}

export interface BrowserItem {
  number: number;
  role: string;
  name: string;
  value?: string;
  href?: string;
  disabled?: boolean;
  checked?: boolean;
}

export interface Tab {
  index: number;
  title: string;
  url: string;
  current: boolean;
}

export interface Download {
  name: string;
  path: string;
  bytes: number;
  url: string;
}

export interface PageDialog {
  type: string;
  message: string;
  default?: string;
  /** the page that opened the dialog */
  url?: string;
}

export interface BrowserView {
  say: string;
  tool: string;
  status: string;
  error?: string;
  result: string;
  /** the command's language: en or ru */
  lang: string;
  /** the line is no number command; it may be a goal in plain words */
  needsModel?: boolean;
  /** the tool's data, as the tool returned it */
  data?: unknown;
  items: BrowserItem[];
  total: number;
  // total is a lower bound: only the first window of a long page is numbered yet.
  totalAtLeast?: boolean;
  url: string;
  title: string;
  tabs: Tab[];
  downloads: Download[];
  dialog?: PageDialog;
  /** that dialog in words, in the command's language ("The page asks: …"): the last line of result */
  dialogText?: string;
  /** the page changed since the list the items come from: say list */
  stale?: boolean;
}

export interface BrowserVisit {
  url: string;
  title: string;
  at: string;
}

export interface TranscriptEntry {
  role: string;
  content: unknown;
  at: string;
}

export interface BrowserSession {
  history: BrowserVisit[];
  transcript: TranscriptEntry[];
  running: boolean;
}

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

async function call<T>(method: string, ...args: unknown[]): Promise<T> {
  try {
    return (await app()[method](...args)) as T;
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
  manuscript: () => call<ManuscriptView>('Manuscript'),
  manuscriptInfo: () => call<ManuscriptView>('ManuscriptInfo'),
  openManuscript: (path: string) => call<ManuscriptView>('OpenManuscript', path),
  chooseManuscript: () => call<ManuscriptView>('ChooseManuscript'),
  newManuscript: (path: string, title: string) => call<ManuscriptView>('NewManuscript', path, title),
  chooseSavePath: (title: string, name: string) => call<string>('ChooseSavePath', title, name),
  recentFiles: () => call<RecentFile[]>('RecentFiles'),
  outline: () => call<OutlineView>('Outline'),
  sync: (rev: number) => call<SyncResult>('Sync', rev),
  typeEdit: (rev: number, from: number, to: number, text: string) => call<TypeResult>('TypeEdit', rev, from, to, text),
  runCommand: (cmd: string) => call<RunCommandResult>('RunCommand', cmd),
  undoEdit: (rev: number) => call<SyncResult>('UndoEdit', rev),
  stop: () => call<string>('Stop'),
  painted: (name: string, chars: number) => call<void>('Painted', name, chars),
  phase: (name: string) => void call<void>('Phase', name).catch(() => {}),
  layout: (r: import('./layout').LayoutReport) => call<void>('Layout', r),
  transcript: (kind: string) => call<TranscriptEntry[]>('Transcript', kind),
  saveDocumentSession: (state: string) => call<void>('SaveDocumentSession', state),
  search: (query: string) => call<SearchResult>('Search', query),
  readPortion: (restart: boolean) => call<Portion>('ReadPortion', restart),
  itemAt: (pos: number) => call<{ index: number; label: string; type: string }>('ItemAt', pos),
  targetSets: () => call<TargetSetSummary[]>('TargetSets'),
  targetSet: (id: string) => call<TargetSetView>('TargetSet', id),
  history: () => call<RevisionInfo[]>('History'),
  checkDisk: () => call<DiskState>('CheckDisk'),
  resolveExternal: (choice: string) => call<ExternalResult>('ResolveExternalChange', choice),
  settings: () => call<Settings>('Settings'),
  saveSettings: (s: Settings) => call<Settings>('SaveSettings', s),
  testConnection: (url: string, model: string, key: string) => call<ProbeReport>('TestConnection', url, model, key),
  serverModels: (url: string, key: string) => call<ModelList>('ServerModels', url, key),
  capabilities: () => call<Capabilities>('Capabilities'),
  say: (text: string) => call<void>('Say', text),
  browserCommand: (text: string) => call<BrowserView>('BrowserCommand', text),
  browserAct: (n: number, action: string, text: string) => call<BrowserView>('BrowserAct', n, action, text),
  browserRefresh: () => call<BrowserView>('BrowserRefresh'),
  browserAnswerDialog: (accept: boolean, text: string) => call<BrowserView>('BrowserAnswerDialog', accept, text),
  browserGoal: (goal: string) => call<AssistantResult>('BrowserGoal', goal),
  browserAnswer: (answer: string) => call<void>('BrowserAnswer', answer),
  browserSession: () => call<BrowserSession>('BrowserSessionState'),
  /** tool runs any tool of the registry (the same tools as the model, MCP and the CLI). */
  tool: async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> =>
    JSON.parse(await call<string>('Call', name, JSON.stringify(args))) as T,
};
