// Waymark's consent world: the bridge to @duckduckgo/autoconsent's content
// script (which follows this file in the same isolated world of every frame)
// and Waymark's own generic rules for banners no autoconsent rule knows.
// Page scripts cannot see this world. Nothing here is read aloud or kept.
(function () {
  if (globalThis.__wmc) return;
  const C = (globalThis.__wmc = {
    out: [],        // messages for Go: eval requests and results
    state: {},      // autoconsent's last report
    attempts: 0,    // autoconsent's detection attempts so far
    config: __WMC_CONFIG__,
    have: __WMC_HAVE_RULES__, // Waymark has autoconsent's rules to give
    rules: null,    // they come from Go when autoconsent starts (C.rulesIn)
  });
  // When autoconsent starts looking: at the banner hook's first look at this
  // document that sees a banner on screen (C.poll), or when Go asks after
  // the page's load event (C.want: 300 ms, 1.5 s and 4 s after it, so that a
  // consent platform the page draws by itself, with no hook looking, is
  // still answered). Its rules (some 250 KB) are not part of the script
  // every document starts with (that cost every page ~20 ms of its
  // loading): Go hands them over (C.rulesIn) when C.needRules says so. And a
  // page with no banner on screen is answered by the hook without
  // autoconsent's ~25 ms first look over all its rules in the way.
  const start = () => {
    if (C.started || !C.initAsked || !C.have) return;
    C.started = true;
    C.needRules = !C.rules;
    if (C.rules) setTimeout(() => globalThis.autoconsentReceiveMessage({ type: 'initResp', config: C.config, rules: C.rules }), 0);
  };
  C.want = () => {
    C.wanted = true;
    start();
    return !!C.needRules;
  };
  C.rulesIn = (rules) => {
    if (C.rules || !rules) return false;
    C.rules = rules;
    C.needRules = false;
    globalThis.autoconsentReceiveMessage({ type: 'initResp', config: C.config, rules });
    return true;
  };
  globalThis.autoconsentSendMessage = (msg) => {
    if (!msg || typeof msg !== 'object') return;
    switch (msg.type) {
      case 'init':
        if (!C.have) return; // no rules installed: autoconsent stays idle
        C.initAsked = true;
        if (C.wanted) start();
        return;
      case 'report': {
        const st = msg.state || {};
        // A detection attempt starts (autoconsent reports the same, mutated
        // state object, so count here): note whether a banner is on screen,
        // so Go knows when autoconsent has had its look at it.
        const n = st.findCmpAttempts || 0;
        if (n > C.attempts) {
          C.attempts = n;
          if (C.lookedAt === undefined && banners().length) {
            C.lookedAt = performance.now();
            C.lookedAttempt = n;
          }
        }
        C.state = st;
        return;
      }
      case 'eval':
        C.out.push({ type: 'eval', id: msg.id, code: msg.code });
        return;
      case 'cmpDetected':
        if (C.detectedAt === undefined) C.detectedAt = performance.now();
        C.out.push({ type: msg.type, cmp: msg.cmp || '' });
        return;
      case 'optOutResult':
      case 'autoconsentDone':
      case 'popupFound':
      case 'autoconsentError':
        C.out.push({ type: msg.type, cmp: msg.cmp || '', result: msg.result, cosmetic: !!msg.isCosmetic });
        return;
    }
  };

  // Words of a consent banner. Deliberately narrow: a sign-in or sign-up
  // dialog that mentions "consent" or personal data is not a banner.
  const CONSENT = /cookie|куки|gdpr|consent (preferences|settings|choices|management)|(your|manage) consent|privacy (preferences|settings|choices|center)/iu;
  // Fields a consent banner never has: a dialog with them is a form.
  const FIELDS = 'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=hidden]):not([type=image]),textarea,select';
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
  const TEXTLESS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const DIALOG = '[role=dialog],[role=alertdialog],[aria-modal=true],dialog[open]';
  const NAMED = '[id*=cookie i],[class*=cookie i],[id*=consent i],[class*=consent i],[id*=gdpr i],[class*=gdpr i],[aria-label*=cookie i],[aria-label*=consent i]';
  // The banner a consent word belongs to: the nearest dialog or fixed or
  // sticky box around it that has a button (climbing out of shadow roots),
  // unless that box is the page itself: an app shell with the main content,
  // a top heading or navigation, or a lot of text.
  const PAGE = 'main,[role=main],h1,nav,[role=navigation]';
  function bannerFor(start) {
    for (let n = start; n && n !== document.body && n !== document.documentElement;
      n = n.parentElement || (n.parentNode && n.parentNode.host) || null) {
      if (n.nodeType !== 1) continue;
      const box = n.matches(DIALOG) || ['fixed', 'sticky'].includes(getComputedStyle(n).position);
      if (!box) continue;
      if (n.querySelector(PAGE) || (n.innerText || '').length > 5000) return null;
      if (buttonsIn(n).length) return n;
    }
    return null;
  }
  // banners: the visible consent banners of this document and its open
  // shadow roots. It starts from the few text nodes with consent words (and
  // elements named after cookies or consent), so a big page costs little.
  function banners() {
    const starts = [];
    for (const root of roots()) {
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let t = tw.nextNode(); t; t = tw.nextNode()) {
        const el = t.parentElement;
        if (t.data.length > 3 && el && !TEXTLESS.has(el.tagName) && CONSENT.test(t.data)) starts.push(el);
      }
      starts.push(...root.querySelectorAll(NAMED));
    }
    const found = [];
    const seen = new Set();
    for (const start of starts) {
      const el = start && bannerFor(start);
      if (!el || seen.has(el)) continue;
      seen.add(el);
      if (!visible(el) || el.querySelector(FIELDS)) continue;
      if (found.some((f) => f.contains(el))) continue;
      for (let i = found.length - 1; i >= 0; i--) if (el.contains(found[i])) found.splice(i, 1);
      found.push(el);
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
      const a = document.activeElement;
      if (a && a !== document.body && (b.contains(a) || (a.shadowRoot && a.shadowRoot.contains(b)))) C.focusInBanner = true;
      pick.click();
      done.push({ how });
    }
    return done;
  };
  // leftovers: after a banner closed, undo what it left: inert or aria-hidden
  // on the page's containers, a scroll lock, focus stuck in a hidden element.
  // Only what looks like page content is touched: a visible container in the
  // viewport with links, buttons, fields or headings (not a closed drawer, not
  // a decorative layer), and a scroll lock only when there is more page to
  // scroll to (not an app that scrolls inside its own panes).
  const CONTENT = 'a[href],button,input,select,textarea,h1,h2,h3,main,nav,[role=main],[role=navigation]';
  function inView(el) {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }
  C.leftovers = () => {
    if (banners().length) return 0;
    let fixed = 0;
    const openModal = document.querySelector('dialog[open],[aria-modal=true]');
    if (openModal && visible(openModal)) return 0;
    const seen = new Set();
    for (const el of [document.documentElement, document.body, ...document.body.children, ...document.querySelectorAll('main,[role=main]')]) {
      if (!el || seen.has(el) || el.tagName === 'SCRIPT' || el.tagName === 'WAYMARK-OVERLAY') continue;
      seen.add(el);
      const content = el === document.body || el === document.documentElement || el.matches('main,[role=main]') || !!el.querySelector(CONTENT);
      if (!content || !visible(el) || !inView(el)) continue;
      if (el.hasAttribute('inert')) { el.removeAttribute('inert'); fixed++; }
      if (el.getAttribute('aria-hidden') === 'true') { el.removeAttribute('aria-hidden'); fixed++; }
    }
    const more = document.documentElement.scrollHeight > innerHeight + 1;
    for (const el of [document.documentElement, document.body]) {
      const cs = getComputedStyle(el);
      if (more && (cs.overflow === 'hidden' || cs.overflowY === 'hidden')) {
        el.style.setProperty('overflow', 'auto', 'important');
        fixed++;
      }
    }
    // Focus left on a hidden element, or dropped to the body from the banner
    // (where a focus trap that was never removed keeps it): put it on the
    // first control of the page's content, so Tab goes on from there.
    const a = document.activeElement;
    if (a && a !== document.body && !visible(a)) { a.blur(); C.focusInBanner = true; }
    if (C.focusInBanner && (!document.activeElement || document.activeElement === document.body)) {
      const home = document.querySelector('main,[role=main]') || document.body;
      const t = [...home.querySelectorAll('a[href],button,input,select,textarea,[tabindex]:not([tabindex="-1"])')]
        .find((x) => !x.disabled && !x.closest('[inert]') && visible(x) && inView(x));
      if (t) { t.focus({ preventScroll: true }); fixed++; }
    }
    C.focusInBanner = false;
    return fixed;
  };
  C.poll = () => {
    const shown = banners().length;
    if (shown) { C.wanted = true; start(); }
    const out = C.out;
    C.out = [];
    // looked: a detection attempt began while a banner was on screen and has
    // had time to finish (its rules are DOM checks; evals are answered each poll).
    const looked = C.lookedAt !== undefined && (performance.now() - C.lookedAt > 300 || C.attempts > C.lookedAttempt);
    return JSON.stringify({ msgs: out, lifecycle: C.state.lifecycle || '', cmps: C.state.detectedCmps || [], needRules: !!C.needRules, banners: shown, looked,
      sinceDetected: C.detectedAt === undefined ? -1 : Math.round(performance.now() - C.detectedAt) });
  };
  C.evalResp = (id, result) => globalThis.autoconsentReceiveMessage({ type: 'evalResp', id, result });
})();
