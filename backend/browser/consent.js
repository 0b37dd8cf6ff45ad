// Waymark's consent world: the bridge to @duckduckgo/autoconsent's content
// script (which follows this file in the same isolated world of every frame)
// and Waymark's own generic rules for banners no autoconsent rule knows.
// Page scripts cannot see this world. Nothing here is read aloud or kept.
(function () {
  if (globalThis.__wmc) return;
  const C = (globalThis.__wmc = {
    out: [],        // messages for Go: eval requests and results
    state: {},      // autoconsent's last report
    results: [],    // {cmp, result} of opt-outs
    config: __WMC_CONFIG__,
    rules: __WMC_RULES__,
  });
  globalThis.autoconsentSendMessage = (msg) => {
    if (!msg || typeof msg !== 'object') return;
    switch (msg.type) {
      case 'init':
        if (!C.rules) return; // no rules installed: autoconsent stays idle
        setTimeout(() => globalThis.autoconsentReceiveMessage({ type: 'initResp', config: C.config, rules: C.rules }), 0);
        return;
      case 'report':
        C.state = msg.state || {};
        return;
      case 'eval':
        C.out.push({ type: 'eval', id: msg.id, code: msg.code });
        return;
      case 'optOutResult':
      case 'autoconsentDone':
      case 'popupFound':
      case 'cmpDetected':
      case 'autoconsentError':
        C.out.push({ type: msg.type, cmp: msg.cmp || '', result: msg.result, cosmetic: !!msg.isCosmetic });
        return;
    }
  };

  const CONSENT = /cookie|consent|gdpr|privacy settings|tracking|куки|cookie-файл|файл(ы|ов) cookie|персональн|согласи|конфиденц/iu;
  const REJECT = /^(reject( all)?|decline( all)?|refuse( all)?|deny( all)?|disagree|(use )?(only )?(strictly )?(necessary|essential|required)( cookies)?( only)?|continue without accepting|отклонить( все)?|отказаться|не принимать|только (необходимые|обязательные|технические)|запретить)(?!\p{L})/iu;
  const CLOSE = /^(close|dismiss|not now|no,? thanks|×|✕|✖|x|закрыть|не сейчас|нет,? спасибо)$/iu;
  const ACCEPT = /^(accept( all)?( cookies)?|agree|i agree|allow( all)?|ok|okay|got it|принять( все)?|согласен|согласиться|хорошо|понятно|разрешить)(?!\p{L})/iu;

  function visible(el) {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && parseFloat(cs.opacity || '1') > 0.05;
  }
  function label(el) {
    return (el.getAttribute('aria-label') || el.innerText || el.value || el.title || '').replace(/\s+/g, ' ').trim();
  }
  // Roots to search: the document and every open shadow root in it.
  function roots() {
    const out = [document];
    const walk = (root) => {
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let el = tw.nextNode(); el; el = tw.nextNode()) {
        if (el.shadowRoot) { out.push(el.shadowRoot); walk(el.shadowRoot); }
      }
    };
    walk(document);
    return out;
  }
  // A banner: a visible dialog or fixed/sticky box on top whose text speaks of
  // cookies or consent, and which has buttons.
  function banners() {
    const found = [];
    // Cheap first look: no consent words anywhere in the text, no banner.
    if (!CONSENT.test(document.documentElement ? document.documentElement.textContent || '' : '') && roots().length === 1) return found;
    for (const root of roots()) {
      for (const el of root.querySelectorAll('[role=dialog],[role=alertdialog],[aria-modal=true],dialog[open],div,section,aside,form,footer')) {
        if (el === document.body || el === document.documentElement) continue;
        const tag = el.tagName;
        let candidate = el.matches('[role=dialog],[role=alertdialog],[aria-modal=true],dialog[open]');
        if (!candidate) {
          const pos = getComputedStyle(el).position;
          candidate = pos === 'fixed' || pos === 'sticky';
        }
        if (!candidate || !visible(el)) continue;
        const text = (el.innerText || '').slice(0, 2000);
        if (!CONSENT.test(text) && !CONSENT.test(el.id + ' ' + el.className)) continue;
        if (found.some((f) => f.contains(el))) continue;
        for (let i = found.length - 1; i >= 0; i--) if (el.contains(found[i])) found.splice(i, 1);
        found.push(el);
        void tag;
      }
    }
    return found;
  }
  function buttonsIn(el) {
    const bs = [...el.querySelectorAll('button,a,[role=button],input[type=button],input[type=submit]')].filter(visible);
    if (el.shadowRoot) bs.push(...buttonsIn(el.shadowRoot));
    return bs;
  }
  // generic: close every consent banner found, preferring reject, then close,
  // then (only when allowed) accept. Returns what was done.
  C.generic = (arg) => {
    const done = [];
    for (const b of banners()) {
      const bs = buttonsIn(b);
      let pick = bs.find((x) => REJECT.test(label(x))), how = 'reject';
      if (!pick) { pick = bs.find((x) => CLOSE.test(label(x))); how = 'close'; }
      if (!pick && arg && arg.acceptIfOnlyWay) { pick = bs.find((x) => ACCEPT.test(label(x))); how = 'accept'; }
      if (!pick) { done.push({ how: 'none', buttons: bs.length }); continue; }
      pick.click();
      done.push({ how });
    }
    return done;
  };
  // leftovers: after a banner closed, undo what it left: inert or aria-hidden
  // on the page's containers, a scroll lock, focus stuck in a hidden element.
  C.leftovers = () => {
    if (banners().length) return 0;
    let fixed = 0;
    const openModal = document.querySelector('dialog[open],[aria-modal=true]');
    if (openModal && visible(openModal)) return 0;
    for (const el of [document.documentElement, document.body, ...document.body.children, ...document.querySelectorAll('main,[role=main]')]) {
      if (!el || el.tagName === 'SCRIPT' || el.tagName === 'WAYMARK-OVERLAY') continue;
      if (el.hasAttribute('inert')) { el.removeAttribute('inert'); fixed++; }
      if (el.getAttribute('aria-hidden') === 'true' && visible(el)) { el.removeAttribute('aria-hidden'); fixed++; }
    }
    for (const el of [document.documentElement, document.body]) {
      if (getComputedStyle(el).overflow === 'hidden' || getComputedStyle(el).overflowY === 'hidden') {
        el.style.setProperty('overflow', 'auto', 'important');
        fixed++;
      }
    }
    const a = document.activeElement;
    if (a && a !== document.body && !visible(a)) { a.blur(); fixed++; }
    return fixed;
  };
  C.poll = () => {
    const out = C.out;
    C.out = [];
    return JSON.stringify({ msgs: out, lifecycle: C.state.lifecycle || '', cmps: C.state.detectedCmps || [], installed: !!C.rules, banners: banners().length });
  };
  C.evalResp = (id, result) => globalThis.autoconsentReceiveMessage({ type: 'evalResp', id, result });
})();
