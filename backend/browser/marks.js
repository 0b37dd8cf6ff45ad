// Waymark's main-world marks, installed before any page script runs. The
// numbering runs in an isolated world and cannot see the page's own event
// listeners or closed shadow roots; these two wrappers leave a plain data
// attribute on the element (never ARIA, so screen readers hear nothing new):
//   data-blind-click        the page listens for clicks on this element
//   data-blind-closed-root  this element has a closed shadow root
(() => {
  const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const ET = EventTarget.prototype;
  const add = ET.addEventListener;
  const mark = (el, name) => {
    try { if (!el.hasAttribute(name)) el.setAttribute(name, ''); } catch (e) { /* */ }
  };
  Object.defineProperty(ET, 'addEventListener', {
    configurable: true, writable: true,
    value: function addEventListener(type, listener, options) {
      if (this instanceof Element && CLICKY.has(String(type))) mark(this, 'data-blind-click');
      return add.call(this, type, listener, options);
    },
  });
  const attach = Element.prototype.attachShadow;
  if (attach) {
    Object.defineProperty(Element.prototype, 'attachShadow', {
      configurable: true, writable: true,
      value: function attachShadow(init) {
        const root = attach.call(this, init);
        if (init && init.mode === 'closed') mark(this, 'data-blind-closed-root');
        return root;
      },
    });
  }
})();
