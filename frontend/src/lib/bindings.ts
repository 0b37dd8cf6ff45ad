// Thin wrappers over the Go methods Wails binds on window.go.main.DesktopApp.
// The window calls the same tools registry as the model, MCP and the CLI.

export interface OutlineHeading {
  index: number;
  level: number;
  text: string;
  words: number;
}

export interface ManuscriptView {
  path: string;
  name: string;
  markdown: string;
  sizeBytes: number;
  items: number;
  revision: number;
  headings: OutlineHeading[];
  totalWords: number;
}

type Bound = {
  Manuscript(): Promise<ManuscriptView>;
  Call(tool: string, args: string): Promise<string>;
};

function bound(): Bound | null {
  const w = window as unknown as { go?: { main?: { DesktopApp?: Bound } } };
  return w.go?.main?.DesktopApp ?? null;
}

export async function manuscript(): Promise<ManuscriptView> {
  const b = bound();
  if (!b) throw new Error('The Waymark backend is not connected (open this page in the Waymark window).');
  return b.Manuscript();
}

export async function callTool(tool: string, args: object): Promise<unknown> {
  const b = bound();
  if (!b) throw new Error('The Waymark backend is not connected.');
  return JSON.parse(await b.Call(tool, JSON.stringify(args)));
}
