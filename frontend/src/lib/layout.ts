// The window measures its own layout: what the screenshot tier (build/screens.sh,
// through the real window) and the UI tier (app/ui_test.go, in Chromium) check at
// 1024×700, 1280×860 and 1920×1080. Each rule is one a person would see broken:
// a title on two lines, a button's label cut or outside its bar, the text column
// squeezed narrower than the tools beside it, lines too long or too short to read,
// a panel that pushes the window instead of scrolling.

// LayoutReport is desktop.LayoutReport (generated): measure is the characters
// per line of the manuscript's text (0 when it is not shown).
import type { LayoutReport } from './tools.gen';
export type { LayoutReport };

const px = (n: number) => Math.round(n);

function visible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  // (.visually-hidden text is for screen readers: one pixel, clipped on purpose)
  return r.width > 1 && r.height > 1 && !el.closest('[hidden], .visually-hidden');
}

function describe(el: Element): string {
  const t = (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const id = el.id ? `#${el.id}` : '';
  return `${el.tagName.toLowerCase()}${id} "${t}"`;
}

/** measureLayout checks the window as it is drawn now. */
export function measureLayout(): LayoutReport {
  const problems: string[] = [];
  const W = window.innerWidth,
    H = window.innerHeight;
  const root = document.documentElement;

  // The window itself never scrolls: its regions do.
  if (root.scrollWidth > W + 1) problems.push(`the page is ${root.scrollWidth} px wide in a ${W} px window`);
  if (root.scrollHeight > H + 1) problems.push(`the page is ${root.scrollHeight} px high in a ${H} px window`);

  // The title: one line, inside the header.
  const h1 = document.querySelector('header h1');
  if (h1 && visible(h1)) {
    const lh = parseFloat(getComputedStyle(h1).lineHeight) || 24;
    const r = h1.getBoundingClientRect();
    if (r.height > lh * 1.5) problems.push(`the title wraps onto ${Math.round(r.height / lh)} lines`);
  }

  // Sections of the window and the text of their own that must fit in them.
  const sections = [
    ...document.querySelectorAll('#app > header, #app > footer, .workspace > [role=toolbar], #outline, .editor-column, aside.side, .tablist'),
  ].filter(visible);
  for (const s of sections) {
    const sr = s.getBoundingClientRect();
    if (sr.left < -1 || sr.right > W + 1 || sr.top < -1 || sr.bottom > H + 1)
      problems.push(`${describe(s).split(' ')[0]} reaches outside the window (${px(sr.left)}–${px(sr.right)} × ${px(sr.top)}–${px(sr.bottom)})`);
    // A region may scroll up and down; sideways only the text can (it wraps).
    if (!s.classList.contains('editor-column') && s.scrollWidth > s.clientWidth + 1)
      problems.push(`${describe(s).split(' ')[0]} overflows sideways (${s.scrollWidth} px of content in ${s.clientWidth} px)`);
    for (const el of s.querySelectorAll('button, label, h1, h2, h3, h4, .tablist button, .save, .status')) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      const scroller = el.closest('#outline, aside.side');
      // Inside a scrolling panel only the sideways fit matters.
      const top = scroller ? -Infinity : sr.top - 1,
        bottom = scroller ? Infinity : sr.bottom + 1;
      if (r.left < sr.left - 1 || r.right > sr.right + 1 || r.top < top || r.bottom > bottom)
        problems.push(`${describe(el)} is outside its ${describe(s).split(' ')[0]}`);
      const cs = getComputedStyle(el);
      // Text cut off inside its own box (an ellipsis is meant, so allowed).
      if (cs.textOverflow !== 'ellipsis' && cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
        problems.push(`${describe(el)} is cut off (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
      if (el.tagName === 'BUTTON' && !el.classList.contains('link') && el.getClientRects().length === 1) {
        const lh = parseFloat(cs.lineHeight) || 24;
        if (r.height > lh * 1.5 + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + 2)
          problems.push(`${describe(el)} wraps onto two lines`);
      }
    }
  }

  // The text column is never narrower than the tools beside it, and its
  // lines are a readable measure.
  const col = document.querySelector('.editor-column'),
    side = document.querySelector('aside.side'),
    outline = document.querySelector('#outline');
  let editorW = 0,
    sideW = 0,
    measure = 0;
  if (col && visible(col)) {
    editorW = col.getBoundingClientRect().width;
    if (side && visible(side)) {
      sideW = side.getBoundingClientRect().width;
      if (editorW < sideW) problems.push(`the text column (${px(editorW)} px) is narrower than the side panel (${px(sideW)} px)`);
    }
    if (outline && visible(outline) && editorW < outline.getBoundingClientRect().width)
      problems.push(`the text column (${px(editorW)} px) is narrower than the outline`);
    const content = col.querySelector('.cm-content') as HTMLElement | null;
    const lines = [...col.querySelectorAll('.cm-line')].map((l) => l.textContent ?? '').join(' ');
    if (content && lines.trim().length > 200) {
      const cs = getComputedStyle(content);
      const ctx = document.createElement('canvas').getContext('2d');
      if (ctx) {
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const sample = lines.replace(/\s+/g, ' ').slice(0, 4000);
        const avg = ctx.measureText(sample).width / sample.length;
        const inner = content.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        measure = Math.round(inner / avg);
        const room = (editorW - 24) / avg; // what the column would allow
        if (measure > 80) problems.push(`lines of ${measure} characters: too long to read (at most 80)`);
        else if (measure < 60 && room >= 66) problems.push(`lines of ${measure} characters in a column with room for ${Math.round(room)}`);
        else if (measure < 45) problems.push(`lines of ${measure} characters: too short to read (at least 45)`);
      }
    }
  }
  if (col && visible(col) && (col.querySelector('.cm-scroller')?.getBoundingClientRect().height ?? 0) < 200)
    problems.push('the text column is less than 200 px high');

  // Panels scroll within their column rather than lengthening the window.
  for (const p of [outline, side]) {
    if (!p || !visible(p)) continue;
    const o = getComputedStyle(p).overflowY;
    if (o !== 'auto' && o !== 'scroll') problems.push(`${describe(p).split(' ')[0]} does not scroll (overflow-y: ${o})`);
  }

  return { width: W, height: H, theme: root.dataset.theme || 'light', measure, editor: px(editorW), side: px(sideW), problems };
}
