package browser

import (
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// A book printed with soft hyphens (publish inserts them by Debian's
// patterns: Chromium has no Russian hyphenation here) carried every one of
// them into the PDF's text layer: 3,351 U+00AD in 20 KB of Russian text, so
// a PDF reader's search for "октября" missed "ок\u00adтяб\u00adря", and a
// copied passage or a screen reader's text held them all. Before printing,
// the page is laid out as it will be printed (print media, the page box's
// width) and every soft hyphen a line does not break at is taken out. A
// greedy line breaker (Chromium's) picks, for each line, the last break
// that fits: taking out breaks it did not pick changes no line, so the
// printed lines stay as they were and only the hyphens at line ends remain.

// pageBoxJS is the width Chromium lays a printed page's content out at, in
// CSS px: the paper's width and the @page rule's left and right margins,
// each in whole pixels (measured with 16 mm margins: A5 prints at 439 px
// and A4 at 673 px; measuring at A5's exact 438.4 px moved 42 lines of 400,
// at A4's 674 px 18 of 313).
const pageBoxJS = `function pageBoxWidth(paperInches) {
	let ml = '0', mr = '0';
	for (const sheet of document.styleSheets) {
		let rules = [];
		try { rules = sheet.cssRules; } catch (e) {}
		for (const rule of rules) {
			if (rule.type === CSSRule.PAGE_RULE && !rule.selectorText) {
				ml = rule.style.marginLeft || ml;
				mr = rule.style.marginRight || mr;
			}
		}
	}
	const px = v => {
		const d = document.createElement('div');
		d.style.cssText = 'position:absolute;visibility:hidden;width:' + v;
		document.body.appendChild(d);
		const w = d.getBoundingClientRect().width;
		d.remove();
		return Math.floor(w);
	};
	return Math.floor(paperInches * 96) - px(ml) - px(mr);
}
`

// unusedHyphensJS lays the body out at the page box's width and removes
// the soft hyphens no line breaks at; it returns how many were kept and
// removed, the characters measured and the time it took.
const unusedHyphensJS = `function(paperInches) {
` + pageBoxJS + `	const t0 = performance.now();
	const body = document.body, old = body.style.width;
	body.style.width = pageBoxWidth(paperInches) + 'px';
	const r = document.createRange();
	let n, calls = 0;
	// The top of the character at i (its line); NaN past the end. A range
	// over the first character of a line also has a box on the line above
	// (the hyphen drawn there, or an empty one): its own box is the last.
	const top = i => {
		if (i < 0 || i >= n.data.length) return NaN;
		calls++;
		r.setStart(n, i);
		r.setEnd(n, i + 1);
		const b = r.getClientRects();
		return b.length ? b[b.length - 1].top : NaN;
	};
	const same = (a, b) => Math.abs(a - b) < 2;
	const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
	const edits = [];
	let kept = 0, removed = 0;
	for (n = walk.nextNode(); n; n = walk.nextNode()) {
		const s = n.data;
		if (s.indexOf('\u00ad') < 0) continue;
		const hy = [];
		for (let i = s.indexOf('\u00ad'); i >= 0; i = s.indexOf('\u00ad', i + 1)) hy.push(i);
		const used = new Array(hy.length).fill(false);
		r.selectNodeContents(n);
		calls++;
		if (r.getClientRects().length > 1) {
			// after[k]: the line of the character after hyphen k. Lines only go
			// down through a text node, so where two hyphens' following
			// characters share a line, no hyphen between them is broken at;
			// the span is halved until each break lies between two
			// neighbouring hyphens, and that one is used when the character
			// before it is on the line above.
			const after = hy.map(() => undefined);
			const at = k => after[k] === undefined ? (after[k] = top(hy[k] + 1)) : after[k];
			const decide = k => { const a = at(k), b = top(hy[k] - 1); used[k] = !isNaN(a) && !isNaN(b) && b < a - 1; };
			decide(0);
			const stack = [[0, hy.length - 1]];
			while (stack.length) {
				const [a, b] = stack.pop();
				if (b <= a) continue;
				if (same(at(a), at(b))) continue;
				if (b === a + 1) { decide(b); continue; }
				const m = (a + b) >> 1;
				stack.push([a, m], [m, b]);
			}
		}
		const keep = [];
		used.forEach((u, k) => { if (u) { keep.push(hy[k]); kept++; } else removed++; });
		edits.push([n, keep]);
	}
	body.style.width = old;
	for (const [n, keep] of edits) {
		const s = n.data, parts = [];
		let from = 0;
		for (const i of keep) { parts.push(s.slice(from, i).replace(/\u00ad/g, '')); parts.push('\u00ad'); from = i + 1; }
		parts.push(s.slice(from).replace(/\u00ad/g, ''));
		n.data = parts.join('');
	}
	return JSON.stringify({kept, removed, calls, ms: Math.round(performance.now() - t0)});
}`

// hyphenStats is what unusedHyphensJS did.
type hyphenStats struct {
	Kept    int `json:"kept"`
	Removed int `json:"removed"`
	Calls   int `json:"calls"`
	MS      int `json:"ms"`
}

// dropUnusedHyphens takes out of p the soft hyphens its printed lines do
// not break at, laid out on paper paperInches wide.
func dropUnusedHyphens(p *rod.Page, paperInches float64) (hyphenStats, error) {
	var st hyphenStats
	if err := (proto.EmulationSetEmulatedMedia{Media: "print"}).Call(p); err != nil {
		return st, fmt.Errorf("lay out for print: %w", err)
	}
	defer func() { _ = (proto.EmulationSetEmulatedMedia{Media: ""}).Call(p) }()
	res, err := p.Eval(unusedHyphensJS, paperInches)
	if err != nil {
		return st, fmt.Errorf("take out unused soft hyphens: %w", err)
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &st); err != nil {
		return st, fmt.Errorf("take out unused soft hyphens: %w", err)
	}
	return st, nil
}
