// Waymark's settle evidence, run in the overlay's isolated world ("waymark")
// of every document from its start (Page.addScriptToEvaluateOnNewDocument;
// evaluated on first use in a document older than the session). Page scripts
// cannot see it. It records the time of the document's last change (nodes,
// attributes, text; a layout shift the browser reports) and the rhythm of its
// changes, until 5 s after the load event, so that the settle after a
// navigation counts the page's quiet time from its last change rather than
// from the moment it asks: a page already quiet after its load event is
// answered at once. It needs no overlay: a navigation does not install it.
(() => {
  if (globalThis.__waymarkRec) return;
  const now = () => performance.now();
  const R = (globalThis.__waymarkRec = { last: now(), prev: -1, need: 0, on: true });
  // The overlay's own host element and marks are not the page's changes.
  const oursNode = n => n.nodeName === 'WAYMARK-OVERLAY';
  const ours = r => {
    if (oursNode(r.target)) return true;
    if (r.type === 'attributes') return !!(r.attributeName && r.attributeName.startsWith('data-blind-'));
    if (r.type === 'childList' && r.addedNodes.length + r.removedNodes.length > 0) {
      for (const n of r.addedNodes) if (!oursNode(n)) return false;
      for (const n of r.removedNodes) if (!oursNode(n)) return false;
      return true;
    }
    return false;
  };
  // The window grows with the rhythm of the changes seen: a page that draws
  // every 30 ms on a busy machine must show a gap of 2.5 rhythms, not 50 ms
  // (at most 250 ms).
  const rhythm = (st, t) => {
    if (st.prev >= 0 && t - st.prev < 250) st.need = Math.min(250, Math.max(st.need, 2.5 * (t - st.prev)));
    st.prev = t;
    st.last = t;
  };
  const observe = (st) => {
    const mo = new MutationObserver(recs => {
      for (const r of recs) if (!ours(r)) { rhythm(st, now()); return; }
    });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    let po = null;
    try {
      po = new PerformanceObserver(l => { if (l.getEntries().some(e => !e.hadRecentInput)) st.last = now(); });
      po.observe({ type: 'layout-shift' });
    } catch (e) { po = null; }
    // The page's own long tasks (its thread busy for 50 ms or more: a search
    // computing, a fetched page being parsed) are work, not quiet: the quiet
    // time counts from the end of the last one (busy says one was seen).
    // Without this, a look after a stall of a second saw a second of "quiet"
    // although the page drew its next result right after.
    const longs = entries => {
      for (const e of entries) {
        const end = e.startTime + e.duration;
        if (end > st.last) { st.last = end; st.busy = true; }
      }
    };
    let lo = null;
    try {
      lo = new PerformanceObserver(l => longs(l.getEntries()));
      lo.observe({ type: 'longtask' });
    } catch (e) { lo = null; }
    return {
      pending: () => mo.takeRecords().some(r => !ours(r)),
      flush: () => { if (lo) longs(lo.takeRecords()); },
      stop: () => { mo.disconnect(); if (po) po.disconnect(); if (lo) lo.disconnect(); },
    };
  };
  let rec = null;
  try { rec = observe(R); } catch (e) { R.on = false; }
  addEventListener('load', () => setTimeout(() => { R.on = false; if (rec) rec.stop(); }, 5000), { once: true });

  // quiet: evidence that the page has stopped changing. It resolves once
  // arg.quiet ms (default 50; longer for a page changing in a slower rhythm)
  // have passed with no change to the DOM (nodes, attributes, text; not the
  // overlay's own host or marks), no layout shift reported by the browser,
  // the same document size and no short timer of the page's loading still due
  // (marks.js) and no long task of the page since the last change; or after
  // arg.max ms (default 500) with quiet false. It answers how long it waited,
  // how long ago the last change it saw was (since), how many elements the
  // document gained meanwhile (grew) and whether a long task ran (busy).
  //
  // With fromLoad (the settle after a navigation) the quiet time counts from
  // the document's last change as recorded since it began (or its last
  // request, arg.netAgo ms ago, if later), not from this call; and a loaded document that cannot change itself (scriptless) is
  // quiet at once.
  R.quiet = (arg) => {
    const q = Math.max(10, Number(arg && arg.quiet) || 50);
    const max = Math.min(Math.max(q, Number(arg && arg.max) || 500), 5000);
    const start = now();
    const fromLoad = !!(arg && arg.fromLoad) && R.on;
    if (fromLoad && document.readyState === 'complete' && scriptless()) {
      return Promise.resolve({ quiet: true, waited: 0, since: Math.round(start - R.last), scriptless: true });
    }
    // The page's last request (arg.netAgo ms ago, as the browser reported
    // it) counts as a change: what its answer brings comes after it.
    // A long task that ended before this call (the call waited for it) is
    // the page's last work, as recorded from its start.
    if (rec) rec.flush();
    const netAgo = Number(arg && arg.netAgo);
    const since = Math.max(R.last, netAgo >= 0 ? start - netAgo : start);
    const st = fromLoad ? { last: Math.min(start, since), prev: R.prev, need: Math.max(q, R.need) } : { last: start, prev: -1, need: q };
    const ob = observe(st);
    const sizeOf = () => {
      const de = document.documentElement;
      return de ? de.scrollWidth + 'x' + de.scrollHeight : '';
    };
    let size = sizeOf();
    // grew: elements added during the look (results drawn in steps), as
    // opposed to changes that only redraw (a clock, a spinner's dots).
    const all = document.getElementsByTagName('*');
    const count0 = all.length;
    return new Promise(res => {
      const tick = () => {
        const t = now();
        ob.flush();
        const sz = sizeOf();
        if (sz !== size) { size = sz; st.last = t; }
        // A short timer the page set while loading is still due (marks.js).
        if (!document.dispatchEvent(new CustomEvent('__WAYMARK_SETTLE__-load', { cancelable: true }))) st.last = t;
        if (t - st.last >= st.need || t - start >= max) {
          if (ob.pending()) st.last = t;
          ob.flush();
          ob.stop();
          res({ quiet: t - st.last >= st.need, waited: Math.round(t - start), since: Math.round(t - st.last), grew: all.length - count0, busy: !!st.busy });
          return;
        }
        setTimeout(tick, Math.max(4, Math.min(16, st.need - (t - st.last))));
      };
      if (fromLoad) tick();
      else setTimeout(tick, Math.min(16, q));
    });
  };

  // settled: quiet, and where the page is (what a navigation reports), in
  // one call.
  R.settled = async (arg) => {
    const r = await R.quiet(arg);
    let status = 0;
    try {
      const nav = performance.getEntriesByType('navigation')[0];
      if (nav && nav.responseStatus) status = nav.responseStatus;
    } catch (e) { /* */ }
    return Object.assign(r, { url: location.href, title: document.title, ready: document.readyState, status });
  };

  // scriptless: nothing in this loaded document can change it by itself: no
  // script element, no frame or plugin (a same-origin frame may write into
  // its parent), no event handler attribute (onload, onanimationend…), no
  // open shadow root (made by a script or declaratively). Pages of more than
  // 20,000 elements are not looked through (they are taken as scripted).
  function scriptless() {
    if (document.querySelector('script,iframe,frame,object,embed')) return false;
    const tw = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
    let n = 0;
    for (let el = tw.nextNode(); el; el = tw.nextNode()) {
      if (oursNode(el)) continue;
      if (++n > 20000 || el.shadowRoot) return false;
      for (const a of el.attributes) if (a.name.length > 2 && a.name.charCodeAt(0) === 111 && a.name.charCodeAt(1) === 110) return false;
    }
    return true;
  }
})();
