// Waymark's main-world marks, installed (Page.addScriptToEvaluateOnNewDocument,
// in every page and out-of-process frame) before any page script runs. The
// numbering runs in an isolated world and cannot see the page's own event
// listeners or closed shadow roots; these wrappers leave a plain data
// attribute on the element (never ARIA, so screen readers hear nothing new):
//   data-blind-click        the page listens for clicks on this element
//   data-blind-closed-root  this element has a closed shadow root
// and it keeps count of the short timers an input's handlers set (a banner
// or menu shown 30 ms after a click), so the overlay's settle can wait for
// them instead of a fixed pause (see settleTimers below).
//
// Why a wrapper and not DOMDebugger.getEventListeners: that CDP call answers
// for one element at a time (one round trip each, ~0.2 ms on loopback), so
// checking every candidate of a 5,000-element page would cost a second per
// list, and choosing a bounded subset would miss exactly the plain <div>s this
// is for. The wrapper costs the page a Map lookup and, the first time an
// element gets a click-like listener, one setAttribute: measured by
// BenchmarkClickListenerMarks at well under a microsecond per call.
//
// Listeners removed again (removeEventListener, or onclick = null) take the
// mark away when none is left. Wrappers are Proxies of the originals, so they
// keep their names, lengths and native-looking source text.
(() => {
  const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const ATTR = 'data-blind-click';
  // element -> listeners seen: [type, listener, capture] and 'on' + type.
  const seen = new WeakMap();
  const has = Element.prototype.hasAttribute, set = Element.prototype.setAttribute,
    del = Element.prototype.removeAttribute;
  const mark = (el, name) => {
    try { if (!has.call(el, name)) set.call(el, name, ''); } catch (e) { /* */ }
  };
  const unmark = (el, name) => {
    try { del.call(el, name); } catch (e) { /* */ }
  };
  const capture = o => (typeof o === 'boolean' ? o : !!(o && typeof o === 'object' && o.capture));
  const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
  function added(el, entry) {
    let list = seen.get(el);
    if (!list) seen.set(el, list = []);
    if (!list.some(e => same(e, entry))) list.push(entry);
    mark(el, ATTR);
  }
  function removed(el, entry) {
    const list = seen.get(el);
    if (!list) return;
    const i = list.findIndex(e => same(e, entry));
    if (i >= 0) list.splice(i, 1);
    if (!list.length) unmark(el, ATTR);
  }
  const wrap = (obj, name, before) => {
    const orig = obj[name];
    if (typeof orig !== 'function') return;
    Object.defineProperty(obj, name, {
      configurable: true, writable: true, enumerable: false,
      value: new Proxy(orig, {
        apply(target, self, args) {
          try { before(self, args); } catch (e) { /* never break the page */ }
          return Reflect.apply(target, self, args);
        },
      }),
    });
  };
  const ET = EventTarget.prototype;
  wrap(ET, 'addEventListener', (self, [type, listener, opts]) => {
    if (listener && self instanceof Element && CLICKY.has(String(type))) added(self, [String(type), listener, capture(opts)]);
  });
  wrap(ET, 'removeEventListener', (self, [type, listener, opts]) => {
    if (listener && self instanceof Element && CLICKY.has(String(type))) removed(self, [String(type), listener, capture(opts)]);
  });
  // onclick = fn and its kin (the property, not the attribute: the overlay
  // sees [onclick] attributes itself).
  for (const proto of [globalThis.HTMLElement && HTMLElement.prototype, globalThis.SVGElement && SVGElement.prototype]) {
    if (!proto) continue;
    for (const type of CLICKY) {
      const d = Object.getOwnPropertyDescriptor(proto, 'on' + type);
      if (!d || !d.set) continue;
      const setter = d.set;
      Object.defineProperty(proto, 'on' + type, {
        configurable: true, enumerable: d.enumerable, get: d.get,
        set: new Proxy(setter, {
          apply(target, self, args) {
            try {
              if (self instanceof Element) {
                if (typeof args[0] === 'function') added(self, ['on' + type, null, false]);
                else removed(self, ['on' + type, null, false]);
              }
            } catch (e) { /* */ }
            return Reflect.apply(target, self, args);
          },
        }),
      });
    }
  }
  // settleTimers: timers of at most SHORT ms set within SHORT ms of an input
  // event (what a click or key handler defers) are remembered until they are
  // due. The overlay's world asks by dispatching a cancelable event of a
  // name only Waymark knows on the document; this listener cancels it while
  // such a timer is pending. Nothing is added to the page's globals or DOM.
  // What the document's loading defers (until SHORT ms after its load event)
  // counts up to LOADING ms: content drawn 150 ms after load is waited for.
  const SHORT = 100, LOADING = 250;
  const pending = new Map(); // timer id -> [when it is due (performance.now()), a loading timer longer than SHORT]
  const now = () => performance.now();
  let lastInput = -Infinity, lastLoad = -Infinity;
  // The pointer's arrival counts too: what a hover handler defers is there
  // before a click's second hit test (clickjacking, actions.go clickItem).
  const inputs = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'input', 'change', 'submit',
    'pointermove', 'mousemove', 'pointerover', 'mouseover'];
  const listen = ET.addEventListener;
  // The document's own loading counts as an input too: what its scripts
  // defer by a short timer while it loads (and up to SHORT ms after its load
  // event) is waited for by the navigation's settle (settle.js quiet).
  // The page's quiet (settle.js) asks by the event named with '-load' and
  // hears of every pending timer; an input's turn not of the longer loading
  // timers (it waits at most timersMax).
  lastInput = lastLoad = now();
  try {
    for (const t of inputs) Reflect.apply(listen, globalThis, [t, () => { lastInput = now(); }, { capture: true, passive: true }]);
    for (const t of ['DOMContentLoaded', 'load']) Reflect.apply(listen, globalThis, [t, () => { lastInput = lastLoad = now(); }, { capture: true, passive: true }]);
    const ask = all => e => {
      const t = now();
      for (const [id, [due, long, runs]] of pending) {
        if (due < t - (runs ? OVERDUE : 1)) pending.delete(id);
        else if (all || !long) { e.preventDefault(); return; }
      }
    };
    Reflect.apply(listen, document, ['__WAYMARK_SETTLE__', ask(false)]);
    Reflect.apply(listen, document, ['__WAYMARK_SETTLE__-load', ask(true)]);
  } catch (e) { /* */ }
  // A loading timer's callback that sets another short timer continues the
  // loading's work (content drawn in steps, each step's timer set by the
  // one before): such chains are followed until CHAIN ms after the load
  // event. A remembered timer leaves the map when its callback runs (or is
  // cleared), not when it is due: on a busy machine a timer runs late, and
  // its drawing is still to come (a timer overdue by OVERDUE ms, or one given
  // as a string, counts until it is due).
  const CHAIN = 1000, OVERDUE = 1000;
  let chained = 0;
  const setT = globalThis.setTimeout, clearT = globalThis.clearTimeout;
  if (typeof setT === 'function') {
    globalThis.setTimeout = new Proxy(setT, {
      apply(target, self, args) {
        let keep = false, long = false, runs = false, id;
        const t = now(), d = Math.max(0, Number(args[1]) || 0);
        try {
          const input = d <= SHORT && t - lastInput <= SHORT;
          const loading = d <= LOADING && (t - lastLoad <= SHORT || (chained > 0 && t - lastLoad <= CHAIN));
          keep = input || loading;
          long = !input && d > SHORT;
          if (keep && pending.size >= 64) for (const [k, [due]] of pending) if (due < t) pending.delete(k);
          keep = keep && pending.size < 64;
          if (keep && typeof args[0] === 'function') {
            const cb = args[0];
            runs = true;
            args = [function (...a) {
              pending.delete(id);
              chained++;
              try { return Reflect.apply(cb, this, a); } finally { chained--; }
            }, ...Array.prototype.slice.call(args, 1)];
          }
        } catch (e) { keep = false; }
        id = Reflect.apply(target, self, args);
        if (keep) pending.set(id, [t + d, long, runs]);
        return id;
      },
    });
  }
  if (typeof clearT === 'function') {
    globalThis.clearTimeout = new Proxy(clearT, {
      apply(target, self, args) {
        try { pending.delete(args[0]); } catch (e) { /* */ }
        return Reflect.apply(target, self, args);
      },
    });
  }
  // Work the document's loading starts (until SHORT ms after its load event)
  // besides timers: a fetch or XMLHttpRequest until it ends (at most
  // REQUEST ms: a long poll is the network rules' business), a frame callback
  // until it runs. The navigation's settle waits for them (settle.js quiet
  // asks with '-load'), so what their answers bring is not missed in the
  // moment before the browser reports the request.
  const REQUEST = 1000;
  const loadWork = (due) => {
    const t = now();
    if (t - lastLoad > SHORT) return null;
    if (pending.size >= 64) for (const [id, [d]] of pending) if (d < t) pending.delete(id);
    if (pending.size >= 64) return null;
    const k = {};
    pending.set(k, [t + due, true]);
    return k;
  };
  const then = Promise.prototype.then;
  if (typeof globalThis.fetch === 'function') {
    globalThis.fetch = new Proxy(globalThis.fetch, {
      apply(target, self, args) {
        const r = Reflect.apply(target, self, args);
        try {
          const k = loadWork(REQUEST);
          if (k) { const done = () => { pending.delete(k); }; Reflect.apply(then, r, [done, done]); }
        } catch (e) { /* */ }
        return r;
      },
    });
  }
  const XHR = globalThis.XMLHttpRequest && XMLHttpRequest.prototype;
  if (XHR && typeof XHR.send === 'function') {
    const send = XHR.send;
    Object.defineProperty(XHR, 'send', {
      configurable: true, writable: true, enumerable: false,
      value: new Proxy(send, {
        apply(target, self, args) {
          try {
            const k = loadWork(REQUEST);
            if (k) Reflect.apply(listen, self, ['loadend', () => { pending.delete(k); }, { once: true }]);
          } catch (e) { /* */ }
          return Reflect.apply(target, self, args);
        },
      }),
    });
  }
  if (typeof globalThis.requestAnimationFrame === 'function') {
    globalThis.requestAnimationFrame = new Proxy(globalThis.requestAnimationFrame, {
      apply(target, self, args) {
        let k = null;
        try {
          k = loadWork(SHORT);
          const cb = args[0];
          if (k && typeof cb === 'function') args = [function (ts) { pending.delete(k); return Reflect.apply(cb, this, [ts]); }];
        } catch (e) { /* */ }
        return Reflect.apply(target, self, args);
      },
    });
  }
  const attach = Element.prototype.attachShadow;
  if (typeof attach === 'function') {
    Object.defineProperty(Element.prototype, 'attachShadow', {
      configurable: true, writable: true, enumerable: false,
      value: new Proxy(attach, {
        apply(target, self, args) {
          const root = Reflect.apply(target, self, args);
          if (args[0] && args[0].mode === 'closed') mark(self, 'data-blind-closed-root');
          return root;
        },
      }),
    });
  }
})();
