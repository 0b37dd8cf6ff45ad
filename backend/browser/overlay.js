// Waymark numbering overlay. Installed by the Go side into an isolated world
// ("waymark") of every frame it numbers, so page scripts can neither see nor
// break it. The DOM is shared with the page: the only marks left on the page's
// own elements are the data attributes data-blind-id (interactive elements)
// and data-blind-frame (iframes). No ARIA attribute is ever set on a page
// element; the badge container is our own element, attached to the top
// document only.
(() => {
  'use strict';
  if (globalThis.__waymark) return;

  const W = {};
  Object.defineProperty(globalThis, '__waymark', { value: W, configurable: false, enumerable: false });

  const S = {
    token: Math.random().toString(36).slice(2) + '-' + Date.now().toString(36),
    next: 1,
    nextFrame: 1,
    byId: new Map(),      // blind id -> WeakRef(element)
    frames: new Map(),    // frame id -> WeakRef(iframe)
    changes: 0,
    threshold: 1,
    observer: null,
    // Whether the last list still describes this document exactly (see
    // unchanged): every change to it since that list is counted in dirty.
    dirty: 0,
    dirtyObs: null,
    listed: null,         // {sx, sy, vw, vh, title} at the last list
    roots: new WeakSet(),
    closed: new WeakMap(), // host -> its closed shadow root (given by Go)
    probed: new WeakSet(), // custom elements already asked about (see list)
    probe: [],            // custom elements to ask about at the next hand-over
    host: null,
    layer: null,
    ov: null,             // {items, scheme, badges}
    listening: false,
    watched: new WeakSet(), // same-origin frame documents whose focus moves re-layout
    poll: 0,              // the focus poll while numbers are shown
    lastFocus: { el: null, r: null },
    raf: 0,
  };

  // A world re-created on a document that already carries our ids (should not
  // happen: Chromium keeps a named isolated world per document) must never
  // reuse an id.
  (function initCounters() {
    let max = 0, maxF = 0;
    try {
      for (const el of document.querySelectorAll('[data-blind-id]')) {
        const v = parseInt(el.getAttribute('data-blind-id'), 10);
        if (v > max) max = v;
      }
      for (const el of document.querySelectorAll('[data-blind-frame]')) {
        const v = parseInt(el.getAttribute('data-blind-frame'), 10);
        if (v > maxF) maxF = v;
      }
    } catch (e) { /* document not ready */ }
    S.next = max + 1;
    S.nextFrame = maxF + 1;
  })();

  const ROLE_SEL = ['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'switch', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton',
    'treeitem', 'gridcell'].map(r => `[role="${r}" i]`);
  // CORE: interactive whatever their tabindex; SEL adds [tabindex] (kept only when >= 0).
  const CORE = ['a[href]', 'area[href]', 'button', 'input:not([type="hidden" i])', 'select', 'textarea',
    'summary', '[contenteditable]:not([contenteditable="false" i])', '[onclick]',
    'video[controls]', 'audio[controls]'].concat(ROLE_SEL).join(',');
  const SEL = CORE + ',[tabindex]';
  // BARE_CORE: the names CORE matches on an element with no attribute.
  const BARE_CORE = new Set(['button', 'input', 'select', 'textarea', 'summary']);
  const FRAME_TAGS = new Set(['IFRAME', 'FRAME']);
  const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);
  const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);

  // norm: runs of white space as one space, trimmed ('' at once for none:
  // most of an element's attributes asked for are not there).
  const norm = s => (s == null || s === '' ? '' : String(s).replace(/[\s\u00a0\u200b]+/g, ' ').trim());
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s);

  function parentOf(el) {
    if (el.parentElement) return el.parentElement;
    const p = el.parentNode;
    return p && p.host ? p.host : null;
  }

  function closestComposed(el, sel) {
    for (let e = el; e; e = parentOf(e)) {
      if (e.matches && e.matches(sel)) return e;
    }
    return null;
  }

  function containsComposed(anc, el) {
    for (let e = el; e; e = parentOf(e)) if (e === anc) return true;
    return false;
  }

  function deepActive(doc) {
    let a = (doc || document).activeElement;
    for (;;) {
      const r = a && (a.shadowRoot || S.closed.get(a));
      if (!r || !r.activeElement) return a;
      a = r.activeElement;
    }
  }

  // ---- ids ---------------------------------------------------------------

  // idFor is el's id: the one it carries when this world gave it, else a
  // fresh one (an id we do not know, copied by cloneNode or set before this
  // world existed, is never trusted). With marks (a walk), the new id's
  // attribute is written after the walk (see markAll): a write between the
  // walk's layout reads made each read after it work the layout out again
  // (a 5,000-link page's first list: a third of its walk).
  function idFor(el, marks) {
    const a = el.getAttribute('data-blind-id');
    if (a) {
      const ref = S.byId.get(a);
      if (ref && ref.deref() === el) return a;
    }
    const id = String(S.next++);
    if (marks) marks.push(el, id); else el.setAttribute('data-blind-id', id);
    S.byId.set(id, new WeakRef(el));
    return id;
  }

  // markAll writes the ids a walk gave (idFor's marks), in the walk's order.
  function markAll(marks) {
    for (let i = 0; i < marks.length; i += 2) marks[i].setAttribute('data-blind-id', marks[i + 1]);
  }

  function frameIdFor(el) {
    const a = el.getAttribute('data-blind-frame');
    if (a) {
      const ref = S.frames.get(a);
      if (ref && ref.deref() === el) return a;
    }
    const id = String(S.nextFrame++);
    el.setAttribute('data-blind-frame', id);
    S.frames.set(id, new WeakRef(el));
    return id;
  }

  function byId(id) {
    const ref = S.byId.get(String(id));
    const el = ref && ref.deref();
    if (!el || !el.isConnected || el.getAttribute('data-blind-id') !== String(id)) return null;
    return el;
  }

  function frameById(id) {
    const ref = S.frames.get(String(id));
    const el = ref && ref.deref();
    if (!el || !el.isConnected) return null;
    return el;
  }

  // Marked hosts whose closed roots the overlay does not hold yet, in the
  // document and, level by level, inside the roots it holds; with take, also
  // the queued custom elements (the queue is emptied).
  function pendingHosts(take) {
    const out = [];
    let scopes = [document];
    for (let depth = 0; depth < 6 && scopes.length; depth++) {
      const next = [];
      for (const sc of scopes) {
        for (const h of sc.querySelectorAll('[data-blind-closed-root]')) {
          const r = S.closed.get(h) || h.shadowRoot;
          if (r) next.push(r); else out.push(h);
        }
      }
      scopes = next;
    }
    if (take) {
      for (const h of S.probe) if (h.isConnected && !out.includes(h)) out.push(h);
      S.probe = [];
    }
    return out;
  }

  // ---- roles and names -------------------------------------------------------

  function roleOf(el) {
    const ra = el.getAttribute('role');
    const r = ra ? ra.trim().split(/\s+/)[0].toLowerCase() : '';
    if (r) return r;
    const tag = el.tagName;
    switch (tag) {
      case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : 'clickable';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'SELECT': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'TEXTAREA': return 'textbox';
      case 'VIDEO': case 'AUDIO': return 'media';
      case 'INPUT': {
        const t = (el.type || 'text').toLowerCase();
        if (t === 'checkbox' || t === 'radio') return t;
        if (BUTTON_TYPES.has(t) || t === 'file') return 'button';
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (t === 'search') return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        if (el.hasAttribute('list')) return 'combobox';
        return 'textbox';
      }
    }
    if (el.isContentEditable) return 'textbox';
    return 'clickable';
  }

  function isField(el) {
    if (el.tagName === 'INPUT') return !BUTTON_TYPES.has((el.type || '').toLowerCase());
    if (FIELD_TAGS.has(el.tagName)) return true;
    if (el.isContentEditable) return true;
    const r = (el.getAttribute('role') || '').toLowerCase();
    return r === 'textbox' || r === 'searchbox' || r === 'combobox' || r === 'spinbutton' || r === 'slider';
  }

  // Text an element shows, with the alternative text of images and the
  // labels of icons when it has no text of its own.
  function textOf(el, depth) {
    let t = el.textContent || '';
    if (t.length > 400) t = t.slice(0, 400);
    t = norm(t);
    if (t) return t;
    if ((depth || 0) > 0) return '';
    const parts = [];
    for (const d of el.querySelectorAll('img[alt],[aria-label],svg title,input[type=image][alt]')) {
      const v = d.tagName.toLowerCase() === 'title' ? d.textContent : (d.getAttribute('aria-label') || d.getAttribute('alt'));
      if (norm(v)) parts.push(norm(v));
      if (parts.length > 3) break;
    }
    if (el.shadowRoot) {
      const st = norm((el.shadowRoot.textContent || '').slice(0, 400));
      if (st) parts.push(st);
    }
    return norm(parts.join(' '));
  }

  function labelText(lab, el) {
    // A label's text without the text of the control inside it (a select's options…).
    let s = '';
    for (const n of lab.childNodes) {
      if (n === el) continue;
      if (n.nodeType === 3) s += n.data;
      else if (n.nodeType === 1 && !(n.matches && n.matches('select,textarea,input'))) s += ' ' + (n.textContent || '');
    }
    return norm(s);
  }

  function byIdRef(el, id) {
    const root = el.getRootNode();
    return (root.getElementById && root.getElementById(id)) || document.getElementById(id);
  }

  function names(el) {
    // Returns [accessible name, extra search text].
    const get = a => norm(el.getAttribute(a));
    const aria = get('aria-label');
    const placeholder = get('placeholder');
    const title = get('title');
    let labelled = '';
    const lb = el.getAttribute('aria-labelledby');
    if (lb) {
      labelled = norm(lb.split(/\s+/).map(id => {
        const t = id && byIdRef(el, id);
        return t ? (t.getAttribute('aria-label') || t.textContent || '') : '';
      }).join(' '));
    }
    let labels = '';
    try {
      if (el.labels && el.labels.length) labels = norm(Array.from(el.labels).map(l => labelText(l, el)).join(' '));
    } catch (e) { /* not labelable */ }
    let name = labelled || aria || labels;
    const tag = el.tagName;
    if (!name && tag === 'INPUT') {
      const t = (el.type || '').toLowerCase();
      if (t === 'submit' || t === 'button' || t === 'reset') name = norm(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
      else if (t === 'image') name = get('alt') || norm(el.value);
    }
    if (!name && (tag === 'IMG' || tag === 'AREA')) name = get('alt');
    // The text an element shows names it, unless that text is only signs
    // (">>>", "«", "×"): then its title or description says what it does
    // (Sphinx's prompt-hiding button, a sidebar's collapse arrow).
    let described = '';
    const db = el.getAttribute('aria-describedby');
    if (db) described = norm(db.split(/\s+/).map(id => { const t = id && byIdRef(el, id); return t ? (t.textContent || '') : ''; }).join(' '));
    if (!name && !isField(el)) {
      const shown = textOf(el, 0);
      name = (!/[\p{L}\p{N}]/u.test(shown) && (title || described)) || shown;
    }
    if (!name) name = placeholder || title || described;
    if (!name && isField(el)) name = nearText(el) || get('name') || get('id');
    return [clip(norm(name), 80), norm([aria, placeholder, title, labels, labelled, described].join(' '))];
  }

  // nearText is the text just before a field with no label, placeholder
  // or title ("Search: [    ]"), within its parent or grandparent: it names
  // the field better than its form name ("q").
  function nearText(el) {
    let e = el;
    for (let depth = 0; depth < 2 && e && e.parentNode; depth++, e = e.parentElement) {
      let seen = 0;
      for (let n = e.previousSibling; n && seen < 6; n = n.previousSibling, seen++) {
        // A choice just before the field says what it searches ("Search
        // Documentation [    ] Go" on SQLite's pages).
        if (n.nodeType === 1 && n.tagName === 'SELECT') {
          const o = n.selectedOptions && n.selectedOptions[0];
          const t = o ? norm(o.label || o.text) : '';
          if (/[\p{L}\p{N}]/u.test(t)) return clip(t, 60);
          break;
        }
        if (n.nodeType === 1 && (isField(n) || /^(SCRIPT|STYLE|TEMPLATE|BUTTON)$/.test(n.tagName))) break;
        const t = norm(n.nodeType === 3 ? n.data : n.nodeType === 1 ? (n.innerText || '') : '').replace(/[:：]\s*$/, '');
        if (/[\p{L}\p{N}]/u.test(t)) return clip(t.length > 60 ? t.slice(-60).replace(/^\S*\s/, '') : t, 60);
      }
    }
    return '';
  }

  function valueOf(el) {
    const tag = el.tagName;
    if (tag === 'INPUT') {
      const t = (el.type || 'text').toLowerCase();
      if (t === 'password' || t === 'checkbox' || t === 'radio' || BUTTON_TYPES.has(t) || t === 'file') return '';
      return clip(norm(el.value), 80);
    }
    if (tag === 'TEXTAREA') return clip(norm(el.value), 80);
    if (tag === 'SELECT') {
      const o = el.selectedOptions && el.selectedOptions[0];
      return o ? clip(norm(o.label || o.text), 80) : '';
    }
    if (el.isContentEditable) return clip(norm(el.innerText), 80);
    const vn = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    return vn ? clip(norm(vn), 80) : '';
  }

  function checkedOf(el) {
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return !!el.checked;
    const a = el.getAttribute('aria-checked') || el.getAttribute('aria-pressed') || el.getAttribute('aria-selected');
    if (a === 'true' || a === 'mixed') return true;
    if (a === 'false') return false;
    return undefined;
  }

  function disabledOf(el) {
    if (el.disabled === true) return true;
    if (el.getAttribute('aria-disabled') === 'true') return true;
    // :disabled applies only to form controls (a fieldset or optgroup disables those in it).
    if (FIELD_TAGS.has(el.tagName) || el.tagName === 'BUTTON' || el.tagName === 'OPTION') {
      try { if (el.matches(':disabled')) return true; } catch (e) { /* */ }
    }
    return false;
  }

  function describe(el) {
    if (!el || el === document.body || el === document.documentElement) return null;
    const [name] = names(el);
    return { role: roleOf(el), name, tag: el.tagName.toLowerCase(), id: el.getAttribute('data-blind-id') || '' };
  }

  // ---- visibility ------------------------------------------------------------

  function docSize() {
    const de = document.documentElement, b = document.body;
    return {
      w: Math.max(de ? de.scrollWidth : 0, b ? b.scrollWidth : 0, innerWidth),
      h: Math.max(de ? de.scrollHeight : 0, b ? b.scrollHeight : 0, innerHeight),
    };
  }

  function boxOf(el) {
    let r = el.getBoundingClientRect();
    if (r.width >= 1 && r.height >= 1) return r;
    // display:contents or an inline element wrapping blocks: use its children.
    let u = null;
    let i = 0;
    for (const c of el.children) {
      if (++i > 20) break;
      const cr = c.getBoundingClientRect();
      if (cr.width < 1 || cr.height < 1) continue;
      u = u ? { left: Math.min(u.left, cr.left), top: Math.min(u.top, cr.top), right: Math.max(u.right, cr.right), bottom: Math.max(u.bottom, cr.bottom) } : { left: cr.left, top: cr.top, right: cr.right, bottom: cr.bottom };
    }
    if (!u) return null;
    return { left: u.left, top: u.top, right: u.right, bottom: u.bottom, width: u.right - u.left, height: u.bottom - u.top, x: u.left, y: u.top };
  }

  function styleVisible(el, cs) {
    if (el.checkVisibility) {
      if (!el.checkVisibility({ visibilityProperty: true })) return false;
    } else if (cs.visibility === 'hidden' || cs.visibility === 'collapse' || cs.display === 'none') {
      return false;
    }
    return true;
  }

  // clipsOf: the overflow-clipping boxes of an element and its ancestors (up
  // to the body), memoised per walk, so each element costs one lookup.
  const NO_CLIPS = [];
  function clipsOf(a, ctx) {
    if (!a || a === document.body || a === document.documentElement) return NO_CLIPS;
    let c = ctx.clip.get(a);
    if (c !== undefined) return c;
    const up = clipsOf(parentOf(a), ctx);
    // One read of the shorthand ("visible", "hidden", "hidden auto": x,
    // then y when it differs) instead of the longhands, each read twice by
    // the tests: a computed style's read costs far more than the compare
    // (a 5,000-link page's list items: 15.5 ms of reads, 6.3 ms now).
    const o = styleOf(a, ctx).overflow;
    let hx = false, hy = false;
    if (o !== 'visible') {
      const sp = o.indexOf(' ');
      const x = sp < 0 ? o : o.slice(0, sp), y = sp < 0 ? o : o.slice(sp + 1);
      hx = x === 'hidden' || x === 'clip';
      hy = y === 'hidden' || y === 'clip';
    }
    c = (hx || hy) ? up.concat([{ hx, hy, r: a.getBoundingClientRect() }]) : up;
    ctx.clip.set(a, c);
    return c;
  }

  function clippedAway(el, r, ctx) {
    for (const c of clipsOf(parentOf(el), ctx)) {
      if (c.hx && (r.right <= c.r.left || r.left >= c.r.right)) return true;
      if (c.hy && (r.bottom <= c.r.top || r.top >= c.r.bottom)) return true;
    }
    return false;
  }

  function inViewport(r) {
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }

  function hitsElement(el, x, y) {
    const root = el.getRootNode();
    const h = (root && root.elementFromPoint ? root : document).elementFromPoint(x, y);
    if (!h) return null;
    if (h === el || el.contains(h) || containsComposed(el, h)) return true;
    if (h.tagName === 'LABEL' && h.control === el) return true;
    return h;
  }

  // Points to try, centre first. Returns {x, y} of the first point that hits the
  // element, {covered: element} when every in-viewport point hits something
  // else, or {unknown: true} when no point is in the viewport.
  function probe(el, r) {
    const pts = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75], [0.5, 0.15], [0.5, 0.85]];
    let cover = null, tried = 0;
    for (const [fx, fy] of pts) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      tried++;
      const h = hitsElement(el, x, y);
      if (h === true) return { x, y };
      if (h && !cover) cover = h;
    }
    if (!tried) return { unknown: true };
    if (!cover) return { unknown: true };
    return { covered: cover };
  }

  function activeDialog() {
    let found = null;
    for (const d of document.querySelectorAll('dialog[open],[role="dialog"][aria-modal="true"],[role="alertdialog"]')) {
      const r = d.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      if (d.tagName === 'DIALOG') {
        let modal = false;
        try { modal = d.matches(':modal'); } catch (e) { /* */ }
        if (!modal && d.getAttribute('aria-modal') !== 'true') continue;
      }
      found = d;
    }
    return found;
  }

  // ---- the walk ----------------------------------------------------------------

  function ensureObserver() {
    if (S.observer) return;
    S.observer = new MutationObserver(onMutations);
    S.observer.observe(document, { childList: true, subtree: true });
    S.dirtyObs = new MutationObserver(onDirty);
    S.dirtyObs.observe(document, DIRTY);
    S.roots.add(document);
    // A field's value or a box's checked state changes without a mutation.
    for (const t of ['input', 'change']) document.addEventListener(t, () => { S.dirty++; }, { capture: true, passive: true });
  }

  function observeRoot(root) {
    ensureObserver();
    if (S.roots.has(root)) return;
    S.roots.add(root);
    S.observer.observe(root, { childList: true, subtree: true });
    S.dirtyObs.observe(root, DIRTY);
    for (const t of ['input', 'change']) root.addEventListener(t, () => { S.dirty++; }, { capture: true, passive: true });
  }

  const DIRTY = { childList: true, subtree: true, attributes: true, characterData: true };
  // Changes the overlay makes itself: its data-blind-* marks and its badges.
  function ownChange(r) {
    if (r.type === 'attributes' && r.attributeName && r.attributeName.startsWith('data-blind-')) return true;
    if (r.type === 'childList') {
      const nodes = [...r.addedNodes, ...r.removedNodes];
      if (nodes.length && nodes.every(n => OWN.has(n))) return true;
    }
    return !!(S.host && (r.target === S.host || S.host.contains(r.target)));
  }
  const OWN = new WeakSet(); // the badge hosts the overlay attached

  function onDirty(records) {
    for (const r of records) if (!ownChange(r)) { S.dirty++; return; }
  }

  // unchanged: nothing at all changed in this document since its last list —
  // no node, attribute or text (but the overlay's own), no field's value, the
  // same scroll position, viewport and title — so that list, taken again,
  // would be the same; a list window can then be served from it.
  function unchanged() {
    if (!S.listed || !S.dirtyObs) return false;
    onDirty(S.dirtyObs.takeRecords());
    const l = S.listed;
    return S.dirty === 0 && l.sx === scrollX && l.sy === scrollY && l.vw === innerWidth && l.vh === innerHeight && l.title === document.title;
  }

  function interesting(n) {
    if (n.nodeType !== 1 || n === S.host) return false;
    try {
      if (n.matches(SEL) || FRAME_TAGS.has(n.tagName)) return true;
      if (n.hasAttribute('data-blind-id')) return true;
      return !!(n.querySelector && (n.querySelector(SEL) || n.querySelector('iframe,frame')));
    } catch (e) {
      return false;
    }
  }

  function onMutations(records) {
    for (const rec of records) {
      for (const n of rec.addedNodes) if (interesting(n)) S.changes++;
      for (const n of rec.removedNodes) if (interesting(n)) S.changes++;
    }
    if (S.ov && S.changes >= S.threshold && S.layer) {
      // The numbers on screen no longer match the page: take them away rather
      // than let someone act on a wrong one.
      S.ov.stale = true;
      S.layer.style.setProperty('display', 'none', 'important');
    }
  }

  // styleOf: an element's computed style, asked for once per walk (the
  // pointer-cursor test, the clip boxes and the visibility checks share it).
  function styleOf(el, ctx) {
    let c = ctx.style.get(el);
    if (c === undefined) {
      c = getComputedStyle(el);
      ctx.style.set(el, c);
    }
    return c;
  }

  function cursorOf(el, ctx) {
    return styleOf(el, ctx).cursor;
  }

  function list(arg) {
    arg = arg || {};
    if (typeof arg.threshold === 'number' && arg.threshold > 0) S.threshold = arg.threshold;
    // Ids continue the session's sequence (kept by Go across documents and
    // frames), so an id is never given to two elements in one session.
    if (typeof arg.base === 'number' && arg.base > S.next) S.next = arg.base;
    ensureObserver();
    if (S.observer) onMutations(S.observer.takeRecords());
    const t0 = arg.timing ? performance.now() : 0;
    const ctx = walkContext(arg, false);
    const dialog = activeDialog();
    const main = document.querySelector('main,[role="main" i]');
    const out = walkAll(ctx, main, dialog);
    markAll(ctx.marks);
    const t1 = arg.timing ? performance.now() : 0;
    // One string (see safe): a 5,000-link page crosses to Go several times
    // faster than as objects.
    const rows = out.join(RS);
    S.changes = 0;
    onDirty(S.dirtyObs.takeRecords());
    S.dirty = 0;
    S.listed = { sx: scrollX, sy: scrollY, vw: innerWidth, vh: innerHeight, title: document.title };
    const de = document.documentElement;
    const r = {
      token: S.token, url: location.href, title: document.title, next: S.next, probe: S.probe.length,
      partial: ctx.stopped, hasMain: !!main, hasDialog: !!dialog,
      vw: innerWidth, vh: innerHeight, sx: scrollX, sy: scrollY,
      rows,
      de: de ? [de.getBoundingClientRect().left, de.getBoundingClientRect().top] : [0, 0],
    };
    // timing (a bench's breakdown only, see phases.go): where the call's
    // time went, in ms.
    if (arg.timing) r.t = { total: performance.now() - t0, geom: ctx.t.geom, labels: ctx.t.labels, join: performance.now() - t1 };
    return r;
  }

  // warm walks the first elements of a new document as list would, leaving
  // nothing behind: no id or frame mark on the page, no observer, no
  // change to what the next list or check says. A navigation runs it while
  // the page settles, so that the first list finds the walk's code compiled
  // and the page's layout worked out (a small page's first list was half
  // that, issue 33 point 14). It stops after WARM_STOP elements or WARM_MS
  // (a long page: never a long task the settle would take for the page's).
  function warm() {
    const ctx = walkContext({ stop: WARM_STOP }, true);
    const main = document.querySelector('main,[role="main" i]');
    return { n: walkAll(ctx, main, activeDialog()).length };
  }
  const WARM_STOP = 40, WARM_MS = 10;

  function walkContext(arg, dry) {
    return { clip: new Map(), style: new Map(), ds: docSize(), sx: scrollX, sy: scrollY, vw: innerWidth, vh: innerHeight, origin: location.origin, originSlash: location.origin + '/', rects: !!arg.rects,
      // marks: the ids given in the walk, written after it (see idFor).
      marks: [],
      // plainHrefs: a root-relative href is the link's address without its
      // origin as it is written (see hrefOf).
      plainHrefs: (location.protocol === 'http:' || location.protocol === 'https:') && document.baseURI === document.URL,
      // stop: number only this many elements, in document order, and stop
      // there (the first window of a long page; the Go side numbers the
      // rest when a later window needs it).
      stop: typeof arg.stop === 'number' && arg.stop > 0 ? arg.stop : 0, count: 0, stopped: false,
      // dry: a walk that marks nothing and starts no observer (warm),
      // until the time it must stop by.
      dry, until: dry ? performance.now() + WARM_MS : 0, seen: 0,
      // t: the time spent in consider's two halves, when the list is timed.
      t: arg.timing ? { geom: 0, labels: 0 } : null };
  }

  // walkAll walks the document (and the shadow roots in it) in document
  // order and returns the rows of its elements and frames.
  function walkAll(ctx, main, dialog) {
    const out = [];
    const walk = root => {
      // closest('[inert]') stays within one tree: ask it only where that tree has some.
      const outerInert = ctx.inert;
      ctx.inert = !!root.querySelector('[inert]');
      // No filter callback (one call into script per node): the overlay's own
      // host has no light-DOM children, so skipping it alone is enough.
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let el = tw.nextNode(); el; el = tw.nextNode()) {
        if (ctx.until && (++ctx.seen & 63) === 0 && performance.now() > ctx.until) { ctx.stopped = true; break; }
        if (el === S.host) continue;
        const tag = el.tagName;
        if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'TEMPLATE' || tag === 'HEAD') continue;
        if (FRAME_TAGS.has(tag)) {
          const r = el.getBoundingClientRect();
          if (r.width < 1 || r.height < 1) continue;
          const cs = getComputedStyle(el);
          if (!styleVisible(el, cs)) continue;
          const fid = ctx.dry ? '' : frameIdFor(el);
          const bl = parseFloat(cs.borderLeftWidth) || 0, bt = parseFloat(cs.borderTopWidth) || 0;
          const pl = parseFloat(cs.paddingLeft) || 0, pt = parseFloat(cs.paddingTop) || 0;
          out.push(['f', fid, safe(clip(el.src || '', 200)), r.left + bl + pl, r.top + bt + pt,
            inViewport(r) ? '0' : '1', main && !containsComposed(main, el) ? '1' : '0', dialog && !containsComposed(dialog, el) ? '1' : '0'].join(US));
          continue;
        }
        let cand = false;
        // An element with no attribute matches CORE by its name alone (a
        // long list's items: no selector match, no attribute asked for).
        const attrs = el.hasAttributes();
        if (!attrs) cand = BARE_CORE.has(el.localName);
        else {
          try { cand = el.matches(CORE); } catch (e) { cand = false; }
        }
        // An element the page gave a click handler with addEventListener (the
        // main-world mark of marks.js), unless it merely delegates for the
        // controls inside it.
        if (!cand && attrs && el.hasAttribute('data-blind-click') && tag !== 'BODY' && tag !== 'HTML') {
          try { cand = !el.querySelector(SEL); } catch (e) { cand = false; }
        }
        if (!cand && attrs && el.hasAttribute('tabindex')) cand = parseInt(el.getAttribute('tabindex'), 10) >= 0;
        if (!cand && tag !== 'BODY' && tag !== 'HTML') {
          if (cursorOf(el, ctx) === 'pointer') {
            const p = parentOf(el);
            cand = !p || cursorOf(p, ctx) !== 'pointer';
            // A pointer cursor set inside a control is that control, not another one.
            if (cand && p && p.closest && p.closest(CORE)) cand = false;
          }
        }
        if (cand) {
          const item = consider(el, ctx, main, dialog);
          if (item) {
            out.push(item);
            if (ctx.stop && ++ctx.count >= ctx.stop) { ctx.stopped = true; break; }
          }
        }
        const sr = el.shadowRoot || S.closed.get(el);
        if (sr) {
          if (!ctx.dry) observeRoot(sr);
          walk(sr);
          if (ctx.stopped) break;
        } else if (!ctx.dry && tag.includes('-') && !S.probed.has(el) && S.probe.length < 100) {
          // A custom element with no root we can see may hold a closed one
          // the page's scripts never attached (declarative shadow DOM): the
          // Go side asks CDP once per element.
          S.probed.add(el);
          S.probe.push(el);
        }
      }
      ctx.inert = outerInert;
    };
    walk(document);
    return out;
  }

  function consider(el, ctx, main, dialog) {
    if (!ctx.t) return considerEl(el, ctx, main, dialog);
    const t = ctx.t, t0 = performance.now();
    t.mark = 0;
    const row = considerEl(el, ctx, main, dialog);
    const t2 = performance.now();
    if (t.mark) { t.geom += t.mark - t0; t.labels += t2 - t.mark; } else t.geom += t2 - t0;
    return row;
  }

  // considerEl is an element's row, or null when it is not to be numbered
  // (not rendered, outside the document, clipped away or covered).
  function considerEl(el, ctx, main, dialog) {
    if (ctx.inert && el.closest('[inert]')) return null;
    const r = boxOf(el);
    if (!r) return null;
    // The computed style is asked for only when needed: on a long page most
    // elements need none (checkVisibility answers display and visibility).
    const style = () => styleOf(el, ctx);
    if (el.checkVisibility ? !el.checkVisibility({ visibilityProperty: true }) : !styleVisible(el, style())) return null;
    // Outside the document's scrollable area (left:-9999px and the like).
    const ax = r.left + ctx.sx, ay = r.top + ctx.sy;
    if (ax + r.width <= 0 || ay + r.height <= 0 || ax >= ctx.ds.w || ay >= ctx.ds.h) {
      if (style().position !== 'fixed') return null;
    }
    if (clippedAway(el, r, ctx) && style().position !== 'fixed') return null;
    // Cover is checked where it can be seen: off screen no point would hit.
    const onScreen = r.bottom > 0 && r.right > 0 && r.top < ctx.vh && r.left < ctx.vw;
    if (onScreen && probe(el, r).covered) return null;
    if (ctx.t) ctx.t.mark = performance.now();
    const id = ctx.dry ? '' : idFor(el, ctx.marks);
    // Rectangles are needed only for the badges of elements in frames.
    const rect = ctx.rects ? [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)].join(',') : '';
    // The row's last fields; a row is built by concatenation (no array per
    // row: a long list's garbage).
    const tail = rect + US + (onScreen ? '0' : '1') + US + (main && !inside(main, el) ? '1' : '0') + US + (dialog && !inside(dialog, el) ? '1' : '0');
    if (plainLink(el)) return 'i' + US + id + US + 'link' + US + safe(clip(textOf(el, 0), 80)) + US + 'a' + US + US + US + safe(hrefOf(el, ctx)) + US + '0' + US + US + US + tail;
    const [name, extra] = names(el);
    const tag = el.tagName.toLowerCase();
    let type = '';
    if (tag === 'input') type = (el.type || 'text').toLowerCase();
    else if (tag === 'button') type = (el.getAttribute('type') || 'submit').toLowerCase();
    // A submit button outside any form sends nothing: it is a plain button
    // (the assistant asks before a send, issue 32).
    if ((type === 'submit' || type === 'image') && !el.form) type = 'button';
    // Same-origin links travel without their origin (Go puts it back): the
    // list of a 5,000-link page is half the size.
    const href = tag === 'a' || tag === 'area' ? hrefOf(el, ctx) : '';
    const ch = checkedOf(el);
    // The fields of an element's row, in the order rowFields reads them.
    return ['i', id, roleOf(el), safe(name), tag, safe(type), safe(valueOf(el)), safe(href), disabledOf(el) ? '1' : '0',
      ch === undefined ? '' : ch ? '1' : '0', extra ? safe(clip(extra, 300)) : '', tail].join(US);
  }

  // plainLink: an <a href> with no attribute that names, role, value or
  // state read (role, title, placeholder, aria-*) and not editable. Its row
  // is the one the general path makes of it — role link, its shown text
  // as its name, no type, value, state or extra labels — without the
  // dozen attribute reads and the name algorithm's tests (on a
  // 5,000-link page most of the labels' time).
  function plainLink(el) {
    if (el.tagName !== 'A') return false;
    let href = false;
    for (const n of el.getAttributeNames()) {
      if (n === 'href') href = true;
      else if (n === 'role' || n === 'title' || n === 'placeholder' || n.startsWith('aria-')) return false;
    }
    return href && !el.isContentEditable;
  }

  // hrefOf is a link's address, without the document's origin when it is
  // the same (Go puts it back). An href written as a plain path from the
  // root ("/item/12?p=2#top": no dot segment, nothing the URL parser would
  // encode or change) in an http(s) document with no other base is that
  // address as it is written: reading it costs no URL serialisation
  // (el.href was a twentieth of a 5,000-link page's walk).
  const PLAIN_HREF = /^\/(?!\/)[\w\-.~!$&()*+,;=:@\/%]*(\?[\w\-.~!$&()*+,;=:@\/%?]*)?(#[\w\-.~!$&()*+,;=:@\/%?#]*)?$/;
  const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
  function hrefOf(el, ctx) {
    if (ctx.plainHrefs) {
      const raw = el.getAttribute('href');
      if (raw && PLAIN_HREF.test(raw) && !DOT_SEGMENT.test(raw.split(/[?#]/, 1)[0])) return clip(raw, 300);
    }
    const h = String(el.href || ''); // read once: each read serialises the URL
    return h ? clip(h.startsWith(ctx.originSlash) ? h.slice(ctx.origin.length) : h, 300) : '';
  }

  // inside: anc holds el, in its tree or through shadow hosts.
  function inside(anc, el) {
    return anc.contains(el) || containsComposed(anc, el);
  }

  // The list travels as one string: each entry's fields (see decodeRows in
  // numbering.go), entry after entry, all split by DEL, which neither JSON
  // layer on the way escapes (a control character would grow sixfold, a
  // symbol threefold) and page text does not hold (any DEL becomes a space).
  const RS = '\x7f', US = RS;
  function safe(v) {
    v = String(v == null ? '' : v);
    return v.indexOf(US) < 0 ? v : v.replace(/\x7f/g, ' ');
  }

  function check(arg) {
    if (S.observer) onMutations(S.observer.takeRecords());
    const r = { token: S.token, changes: S.changes, url: location.href, threshold: S.threshold };
    if (arg && arg.same) r.same = unchanged();
    // How many closed shadow roots the Go side should hand over first.
    if (arg && arg.closed) r.closed = pendingHosts(false).length;
    // With list (a list's first look): the walk too, in the same call,
    // unless closed roots must be given first, the page is on another host
    // than the one whose banners were looked at (they are closed before a
    // walk), or the list asked about (reuse: its token) still describes
    // this document exactly.
    if (arg && arg.list && r.closed === 0 && (arg.host == null || location.hostname.replace(/^\[|\]$/g, '') === arg.host) &&
        !(arg.reuse && arg.reuse === S.token && r.same && !r.changes)) {
      r.list = list(arg.list);
    }
    return r;
  }

  // ---- acting ----------------------------------------------------------------

  function point(arg) {
    const el = byId(arg.id);
    if (!el) return { gone: true };
    const r = boxOf(el);
    if (!r) return { hidden: 'it has no size now' };
    const cs = getComputedStyle(el);
    if (!styleVisible(el, cs)) return { hidden: 'it is hidden now' };
    if (el.closest('[inert]')) return { hidden: 'it is inert (behind a dialog)' };
    const pr = probe(el, r);
    const me = describe(el) || { role: '', name: '' };
    const res = { rect: [r.left, r.top, r.width, r.height], disabled: disabledOf(el), role: me.role, name: me.name };
    if (pr.covered) {
      const d = describe(pr.covered) || { tag: pr.covered.tagName.toLowerCase(), name: '' };
      res.covered = d.tag + (d.name ? ' "' + d.name + '"' : '') + (pr.covered.id ? '#' + pr.covered.id : '');
      return res;
    }
    if (pr.unknown) {
      res.x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1);
      res.y = Math.min(Math.max(r.top + r.height / 2, 1), innerHeight - 1);
      res.offscreen = !(res.x >= r.left && res.x <= r.right && res.y >= r.top && res.y <= r.bottom);
      return res;
    }
    res.x = pr.x;
    res.y = pr.y;
    return res;
  }

  // The content box of a frame element in this viewport, and its scale (a
  // CSS transform may shrink or grow the frame).
  function frameBox(el) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const sx = el.offsetWidth ? r.width / el.offsetWidth : 1, sy = el.offsetHeight ? r.height / el.offsetHeight : 1;
    return {
      x: r.left + ((parseFloat(cs.borderLeftWidth) || 0) + (parseFloat(cs.paddingLeft) || 0)) * sx,
      y: r.top + ((parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.paddingTop) || 0)) * sy,
      sx, sy,
    };
  }

  // framePoint maps a point of the frame shown by <iframe data-blind-frame=fid>
  // (in that frame's viewport) to this document's viewport, scrolling this
  // document when the point is out of its view, and says whether a click
  // there reaches the frame or something lying over it.
  function framePoint(arg) {
    const el = frameById(arg.fid);
    if (!el) return { gone: true };
    const at = () => { const b = frameBox(el); return [b.x + arg.x * b.sx, b.y + arg.y * b.sy]; };
    const outside = ([x, y]) => x < 0 || y < 0 || x >= innerWidth || y >= innerHeight;
    let p = at();
    if (outside(p)) {
      try { el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' }); } catch (e) { /* */ }
      p = at();
    }
    if (outside(p)) {
      // A frame taller or wider than the view: bring the point to the middle.
      const dx = p[0] < 0 || p[0] >= innerWidth ? p[0] - innerWidth / 2 : 0;
      const dy = p[1] < 0 || p[1] >= innerHeight ? p[1] - innerHeight / 2 : 0;
      try { scrollBy({ left: dx, top: dy, behavior: 'instant' }); } catch (e) { /* */ }
      p = at();
    }
    if (outside(p)) return { out: true };
    const h = hitsElement(el, p[0], p[1]);
    if (h === null) return { out: true };
    if (h !== true) {
      const d = describe(h) || { tag: h.tagName.toLowerCase(), name: '' };
      return { x: p[0], y: p[1], covered: d.tag + (d.name ? ' "' + d.name + '"' : '') + (h.id ? '#' + h.id : '') };
    }
    return { x: p[0], y: p[1] };
  }

  function focusEl(arg) {
    const el = byId(arg.id);
    if (!el) return { gone: true };
    if (deepActive() !== el) {
      try { el.focus({ preventScroll: true }); } catch (e) { /* */ }
    }
    const a = deepActive();
    return { focused: a === el, active: describe(a) };
  }

  function selectAll(arg) {
    const el = byId(arg.id);
    if (!el) return { gone: true };
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
      try { el.select(); } catch (e) { /* */ }
      return { len: (el.value || '').length };
    }
    if (el.isContentEditable) {
      const sel = el.ownerDocument.getSelection();
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      sel.removeAllRanges();
      sel.addRange(range);
      return { len: (el.innerText || '').length };
    }
    return { len: 0 };
  }

  function fieldValue(arg) {
    const el = byId(arg.id);
    if (!el) return { gone: true };
    const password = el.tagName === 'INPUT' && (el.type || '').toLowerCase() === 'password';
    let v = '';
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') v = el.value || '';
    else if (el.isContentEditable) v = el.innerText || '';
    else if (el.tagName === 'SELECT') v = valueOf(el);
    return { value: v, password, active: deepActive() === el };
  }

  function selectOption(arg) {
    const el = byId(arg.id);
    if (!el) return { gone: true };
    if (el.tagName !== 'SELECT') return { notSelect: true, role: roleOf(el) };
    if (disabledOf(el)) return { disabled: true };
    const want = norm(arg.text).toLowerCase();
    const opts = Array.from(el.options);
    const label = o => norm(o.label || o.text).toLowerCase();
    let pick = opts.find(o => label(o) === want) || opts.find(o => norm(o.value).toLowerCase() === want);
    if (!pick) {
      const partial = opts.filter(o => label(o).includes(want));
      if (partial.length === 1) pick = partial[0];
      else if (partial.length > 1) return { ambiguous: partial.slice(0, 10).map(o => norm(o.label || o.text)) };
    }
    if (!pick) return { none: true, options: opts.slice(0, 25).map(o => norm(o.label || o.text)) };
    if (pick.disabled) return { optionDisabled: norm(pick.label || pick.text) };
    try { el.focus({ preventScroll: true }); } catch (e) { /* */ }
    if (el.multiple) {
      pick.selected = true;
    } else {
      el.value = pick.value;
      pick.selected = true;
    }
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { selected: norm(pick.label || pick.text), value: pick.value };
  }

  function info() {
    let status = 0;
    try {
      const nav = performance.getEntriesByType('navigation')[0];
      if (nav && nav.responseStatus) status = nav.responseStatus;
    } catch (e) { /* */ }
    const ds = docSize();
    return {
      url: location.href, title: document.title, ready: document.readyState, status,
      sx: scrollX, sy: scrollY, sw: ds.w, sh: ds.h, vw: innerWidth, vh: innerHeight,
      active: describe(deepActive()),
    };
  }

  // ---- summary for listening -----------------------------------------------------

  function visibleQuick(el) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  }

  function summary() {
    const headings = [];
    for (const h of document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role="heading" i]')) {
      if (headings.length >= 60) break;
      if (!visibleQuick(h)) continue;
      const level = /^H[1-6]$/.test(h.tagName) ? +h.tagName[1] : (parseInt(h.getAttribute('aria-level'), 10) || 2);
      const text = clip(norm(h.getAttribute('aria-label') || h.innerText || h.textContent), 120);
      if (text) headings.push({ level, text });
    }
    const landmarks = [];
    const lmSel = 'header,nav,main,aside,footer,form,search,section[aria-label],section[aria-labelledby],[role="banner" i],[role="navigation" i],[role="main" i],[role="complementary" i],[role="contentinfo" i],[role="search" i],[role="region" i],[role="form" i]';
    for (const l of document.querySelectorAll(lmSel)) {
      if (landmarks.length >= 30) break;
      if (!visibleQuick(l)) continue;
      let role = (l.getAttribute('role') || '').toLowerCase();
      if (!role) {
        const t = l.tagName;
        const sectioning = l.parentElement && l.parentElement.closest('article,aside,main,nav,section');
        role = t === 'HEADER' ? (sectioning ? '' : 'banner') : t === 'FOOTER' ? (sectioning ? '' : 'contentinfo') :
          t === 'NAV' ? 'navigation' : t === 'MAIN' ? 'main' : t === 'ASIDE' ? 'complementary' : t === 'SEARCH' ? 'search' :
          t === 'FORM' ? ((l.getAttribute('aria-label') || l.getAttribute('aria-labelledby') || l.getAttribute('name')) ? 'form' : '') : 'region';
      }
      if (!role) continue;
      let name = norm(l.getAttribute('aria-label'));
      const lb = l.getAttribute('aria-labelledby');
      if (!name && lb) name = norm(lb.split(/\s+/).map(id => { const t = document.getElementById(id); return t ? t.textContent : ''; }).join(' '));
      if (!name && role === 'form') name = norm(l.getAttribute('name'));
      landmarks.push({ role, name: clip(name, 80) });
    }
    const root = document.querySelector('main,[role="main" i]') || document.querySelector('article') || document.body;
    let text = root ? norm(root.innerText || root.textContent || '') : '';
    const fields = [];
    for (const f of document.querySelectorAll('input:not([type="hidden" i]):not([type="submit" i]):not([type="button" i]):not([type="reset" i]):not([type="image" i]),select,textarea,[contenteditable]:not([contenteditable="false" i]),[role="textbox" i],[role="combobox" i],[role="searchbox" i]')) {
      if (fields.length >= 40) break;
      if (!visibleQuick(f)) continue;
      const [label] = names(f);
      const fr = { label, kind: roleOf(f) };
      if (f.tagName === 'INPUT') fr.type = (f.type || 'text').toLowerCase();
      const v = valueOf(f);
      if (v) fr.value = v;
      const ch = checkedOf(f);
      if (ch !== undefined) fr.checked = ch;
      if (f.required || f.getAttribute('aria-required') === 'true') fr.required = true;
      if (disabledOf(f)) fr.disabled = true;
      const id = f.getAttribute('data-blind-id');
      if (id && byId(id) === f) fr.id = id;
      fields.push(fr);
    }
    // Live regions say what just happened (a status line, an error): read them.
    const live = [];
    for (const l of document.querySelectorAll('[role="status" i],[role="alert" i],output')) {
      if (live.length >= 5) break;
      const t = clip(norm(l.innerText || l.textContent || ''), 300);
      if (t && visibleQuick(l)) live.push({ role: (l.getAttribute('role') || 'status').toLowerCase(), text: t });
    }
    return { token: S.token, title: document.title, url: location.href, lang: document.documentElement ? document.documentElement.lang : '', headings, landmarks, text: text.slice(0, 6000), fields, live };
  }

  // ---- overlay (top document only) ------------------------------------------------

  const SCHEMES = {
    'yellow-on-black': { fg: '#ffff00', bg: '#000000', border: '#ffff00' },
    'black-on-yellow': { fg: '#000000', bg: '#ffff00', border: '#000000' },
    'white-on-black': { fg: '#ffffff', bg: '#000000', border: '#ffffff' },
    'white-on-blue': { fg: '#ffffff', bg: '#00008b', border: '#ffffff' },
  };

  function setStyles(el, styles) {
    for (const k in styles) el.style.setProperty(k, styles[k], 'important');
  }

  function ensureHost() {
    if (S.host && S.host.isConnected) return;
    const host = document.createElement('waymark-overlay');
    host.setAttribute('aria-hidden', 'true');
    setStyles(host, {
      'all': 'initial', 'display': 'block', 'position': 'fixed', 'left': '0', 'top': '0', 'width': '0',
      'height': '0', 'overflow': 'visible', 'z-index': '2147483647', 'pointer-events': 'none',
    });
    const root = host.attachShadow({ mode: 'open' });
    const layer = document.createElement('div');
    setStyles(layer, { 'position': 'fixed', 'left': '0', 'top': '0', 'width': '0', 'height': '0', 'pointer-events': 'none' });
    root.appendChild(layer);
    (document.documentElement || document.body).appendChild(host);
    S.host = host;
    OWN.add(host);
    S.layer = layer;
  }

  function scheduleLayout() {
    if (!S.ov || S.raf) return;
    S.raf = requestAnimationFrame(() => { S.raf = 0; layout(); });
  }

  // Focus moves inside frames send the top document no event (and those in
  // cross-origin frames cannot be watched at all): while numbers are shown,
  // a light poll notices the focused element changing and lays them out
  // again, so none comes to lie over it.
  function watchActive() {
    if (S.poll) return;
    S.poll = setInterval(() => {
      if (!S.ov) { clearInterval(S.poll); S.poll = 0; return; }
      const fb = focusBox();
      const key = fb ? fb.el : null;
      const r = fb ? fb.r : null;
      const prev = S.lastFocus;
      if (key !== prev.el || (r && prev.r && !near(r, prev.r)) || (!r) !== (!prev.r)) {
        S.lastFocus = { el: key, r };
        scheduleLayout();
      }
    }, 200);
  }

  function listen() {
    watchActive();
    if (S.listening) return;
    S.listening = true;
    const o = { capture: true, passive: true };
    addEventListener('scroll', scheduleLayout, o);
    addEventListener('resize', scheduleLayout, o);
    document.addEventListener('focusin', scheduleLayout, o);
    document.addEventListener('focusout', scheduleLayout, o);
  }

  // The focused element and its box in this viewport, followed down through
  // same-origin frames (whose focus moves are then watched too); a
  // cross-origin frame that holds the focus stands for its whole content.
  function focusBox() {
    let a = deepActive();
    if (!a || a === document.body || a === document.documentElement) return null;
    let ox = 0, oy = 0;
    for (let depth = 0; depth < 6 && FRAME_TAGS.has(a.tagName); depth++) {
      let doc = null;
      try { doc = a.contentDocument; } catch (e) { doc = null; }
      if (!doc) break;
      watchFocus(doc);
      const inner = deepActive(doc);
      if (!inner || inner === doc.body || inner === doc.documentElement) break;
      const b = frameBox(a);
      ox += b.x;
      oy += b.y;
      a = inner;
    }
    const r = a.getBoundingClientRect();
    return { el: a, r: { left: r.left + ox, top: r.top + oy, right: r.right + ox, bottom: r.bottom + oy, width: r.width, height: r.height } };
  }

  function watchFocus(doc) {
    if (S.watched.has(doc)) return;
    S.watched.add(doc);
    const o = { capture: true, passive: true };
    doc.addEventListener('focusin', scheduleLayout, o);
    doc.addEventListener('focusout', scheduleLayout, o);
  }

  const near = (a, b) => Math.abs(a.left - b.left) < 3 && Math.abs(a.top - b.top) < 3 &&
    Math.abs(a.width - b.width) < 3 && Math.abs(a.height - b.height) < 3;

  function intersects(a, b) {
    return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
  }

  function layout() {
    if (!S.ov || !S.layer) return;
    if (S.ov.stale) return;
    const fb = focusBox();
    const actEl = fb && fb.el, ar = fb && fb.r;
    for (const b of S.ov.badges) {
      const it = b.item;
      let r = null, el = null;
      if (it.id) {
        el = byId(it.id);
        if (el) r = boxOf(el);
      } else if (it.rect) {
        r = { left: it.rect[0] - scrollX, top: it.rect[1] - scrollY, width: it.rect[2], height: it.rect[3] };
        r.right = r.left + r.width;
        r.bottom = r.top + r.height;
      }
      if (!r || r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) {
        b.el.style.setProperty('display', 'none', 'important');
        continue;
      }
      b.el.style.setProperty('display', 'block', 'important');
      const bw = b.w || (b.w = b.el.offsetWidth || 24), bh = b.h || (b.h = b.el.offsetHeight || 22);
      let x = r.left - 4, y = r.top - 4;
      if (ar && ar.width > 0) {
        const br = { left: x, top: y, right: x + bw, bottom: y + bh };
        if (intersects(br, ar)) {
          // The focused element's own number (a frame's element has no
          // element here: its listed box matches the focused one).
          if (el ? el === actEl : near(r, ar)) {
            // Move the focused element's own number outside it: left, else above, else below.
            x = ar.left - bw - 3; y = ar.top;
            if (x < 0) { x = ar.left; y = ar.top - bh - 3; }
            if (y < 0) { y = ar.bottom + 3; }
          } else {
            b.el.style.setProperty('display', 'none', 'important');
            continue;
          }
        }
      }
      x = Math.max(0, Math.min(x, innerWidth - bw));
      y = Math.max(0, Math.min(y, innerHeight - bh));
      if (ar && ar.width > 0 && intersects({ left: x, top: y, right: x + bw, bottom: y + bh }, ar)) {
        // No room outside the focused element (kept inside the view): hide
        // the number rather than cover what has the focus.
        b.el.style.setProperty('display', 'none', 'important');
        continue;
      }
      b.el.style.setProperty('transform', `translate(${Math.round(x)}px, ${Math.round(y)}px)`, 'important');
    }
  }

  function showOverlay(arg) {
    ensureHost();
    listen();
    const sc = SCHEMES[arg.scheme] || SCHEMES['yellow-on-black'];
    while (S.layer.firstChild) S.layer.firstChild.remove();
    S.layer.style.setProperty('display', 'block', 'important');
    const badges = [];
    for (const it of arg.items || []) {
      const b = document.createElement('span');
      b.textContent = String(it.n);
      setStyles(b, {
        'position': 'fixed', 'left': '0', 'top': '0', 'display': 'block', 'box-sizing': 'border-box',
        'font-family': 'Arial, Helvetica, sans-serif', 'font-size': '16px', 'font-weight': '700',
        'line-height': '18px', 'padding': '0 4px', 'min-width': '22px', 'text-align': 'center',
        'color': sc.fg, 'background': sc.bg, 'border': '2px solid ' + sc.border, 'border-radius': '3px',
        'white-space': 'nowrap', 'pointer-events': 'none', 'margin': '0', 'opacity': '1',
      });
      S.layer.appendChild(b);
      badges.push({ el: b, item: it });
    }
    S.ov = { items: arg.items || [], scheme: arg.scheme, badges, stale: false };
    layout();
    let shown = 0;
    for (const b of badges) if (b.el.style.getPropertyValue('display') !== 'none') shown++;
    return { badges: badges.length, visible: shown };
  }

  function hideOverlay() {
    const had = !!(S.host && S.host.isConnected);
    if (S.host) S.host.remove();
    S.host = null;
    S.layer = null;
    S.ov = null;
    return { removed: had };
  }

  // Two animation frames (so a scroll or a layout change is painted), with a
  // timer in case the page is not being rendered: 150 ms, or arg.max ms.
  // A click into a frame of another process waits longer (toTop): Chromium
  // routes it by the positions the compositor last drew, which lag a scroll
  // until the frames come, and a loaded machine can take over 150 ms.
  function settle(arg) {
    return new Promise(res => {
      let done = false;
      const fin = () => { if (!done) { done = true; res({}); } };
      requestAnimationFrame(() => requestAnimationFrame(fin));
      setTimeout(fin, Number(arg && arg.max) || 150);
    });
  }

  // browser_scroll with behavior instant: a jump, no wheel events.
  function scrollBy(arg) {
    window.scrollBy({ left: Number(arg.dx) || 0, top: Number(arg.dy) || 0, behavior: 'instant' });
    return {};
  }

  // One turn of the event loop: zero-delay tasks the page queued run first.
  // With max (ms), it also waits, at most that long, for the short timers the
  // page's input handlers set (marks.js counts them and cancels the event
  // while one is pending): a banner or menu shown 30 ms after a click is
  // there when the settle ends. It answers how long it waited.
  function turn(arg) {
    const start = performance.now(), max = Math.min(Number(arg && arg.max) || 0, 1000);
    const tick = ms => new Promise(res => setTimeout(res, ms));
    return (async () => {
      await tick(0);
      while (performance.now() - start < max) {
        const ev = new CustomEvent('__WAYMARK_SETTLE__', { cancelable: true });
        if (document.dispatchEvent(ev)) break; // no short timer pending
        await tick(4);
      }
      await tick(0);
      return { waited: Math.round(performance.now() - start) };
    })();
  }

  // Host code only (never the model): the state of a CSS selector's first match.
  function selectorState(arg) {
    let el = null;
    try { el = document.querySelector(arg.selector); } catch (e) { return { error: 'bad selector: ' + e.message }; }
    if (!el) return { attached: false, visible: false };
    const r = el.getBoundingClientRect();
    const vis = r.width > 0 && r.height > 0 && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));
    return { attached: true, visible: vis };
  }

  const OPS = {
    list, warm, check, point, focus: focusEl, selectAll, value: fieldValue, select: selectOption, info,
    framePoint, summary, showOverlay, hideOverlay, settle, turn, scrollBy, selectorState,
  };

  W.call = (op, arg) => {
    const f = OPS[op];
    if (!f) throw new Error('waymark: unknown op ' + op);
    const r = f(arg || {});
    if (r && typeof r.then === 'function') return r.then(v => JSON.stringify(v));
    return JSON.stringify(r);
  };
  // Element handles for the Go side (CDP DOM calls need an object id).
  W.element = id => byId(id);
  // closedRoot gives the overlay a closed shadow root (found by the Go side
  // through CDP, which sees them), so its elements are numbered in place.
  W.closedRoot = (host, root) => { if (host && root) S.closed.set(host, root); return true; };
  // closedHosts lists the hosts whose closed roots the Go side should hand
  // over: the marked ones (marks.js saw attachShadow) whose roots the overlay
  // does not hold yet, and the custom elements the last list queued.
  W.closedHosts = () => pendingHosts(true);
  W.frame = fid => frameById(fid);
  W.active = () => deepActive();
})();
