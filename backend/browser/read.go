package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// Reading by portions: the main text of a page (its main landmark, else its
// article, else the body) as the browser renders it, cut into portions of
// about 1,500 characters at paragraph or sentence ends, so a listener can hear
// a whole chapter: from the start, on from where the last portion stopped, or
// from one of the page's numbered headings.

// Portion sizes of browser_read.
const (
	DefaultPortion = MaxGist
	MinPortion     = 200
	MaxPortion     = 6000
	// maxReadHeadings bounds the headings numbered for reading (a summary
	// shows the first 60 of them).
	maxReadHeadings = 300
	maxSummaryHeads = 60
)

// pageTextJS is what the page scripts that read text share: norm (spaces
// made one), clip (a text cut to n characters) and vis (drawn on screen).
const pageTextJS = `	const norm = s => (s == null ? '' : String(s)).replace(/[\s\u00a0\u200b]+/g, ' ').trim();
	const clip = (s, n) => (s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s);
	const vis = el => {
		const r = el.getBoundingClientRect();
		if (r.width < 1 || r.height < 1) return false;
		return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
	};
`

// readJS runs in the overlay's isolated world of the top document: the main
// text as rendered (innerText: hidden parts left out, paragraphs on lines of
// their own) and every visible heading of the page in document order, with
// whether it lies in that text.
const readJS = `function(opt) {
` + pageTextJS + `	const root = document.querySelector('main,[role="main" i]') || document.querySelector('article') || document.body;
	// The first line of text after a heading, so that the heading is found
	// in the text at its own place, not at a contents link of the same name.
	const after = h => {
		for (let e = h; e && e !== root; e = e.parentElement) {
			for (let n = e.nextElementSibling; n; n = n.nextElementSibling) {
				const line = (n.innerText || '').split('\n').map(norm).find(l => l);
				if (line) return line.slice(0, 40);
			}
		}
		return '';
	};
	const headings = [], headEls = [];
	for (const h of document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role="heading" i]')) {
		if (headings.length >= ` + "300" + `) break;
		if (!vis(h)) continue;
		const level = /^H[1-6]$/.test(h.tagName) ? +h.tagName[1] : (parseInt(h.getAttribute('aria-level'), 10) || 2);
		const text = clip(norm(h.getAttribute('aria-label') || h.innerText || h.textContent), 120);
		if (!text) continue;
		const main = !!root && root.contains(h);
		headings.push({ level, text, main, key: norm(h.innerText || h.textContent).slice(0, 200), after: main ? after(h) : '' });
		headEls.push(h);
	}
	// Program code as shown: its lines keep every space.
	const pre = [];
	let preChars = 0;
	for (const p of root.querySelectorAll('pre')) {
		if (preChars > 200000 || !vis(p)) continue;
		const t = p.innerText || '';
		preChars += t.length;
		pre.push(t);
	}
	// "Here": the target of the address's #fragment, else the focused
	// element, else the first block at the top of the screen. Its heading
	// (the heading it is, is in, holds, or the first after it) places it in
	// the text; a key (its first line) when no heading does.
	let here = null;
	if (opt && opt.here) {
		let target = null, by = '';
		try {
			const h = decodeURIComponent(location.hash.slice(1));
			if (h) target = document.getElementById(h) || document.getElementsByName(h)[0] || null;
			if (target) by = 'target';
		} catch (e) { /* a malformed fragment names nothing */ }
		const a = document.activeElement;
		if (!target && a && a !== document.body && a !== document.documentElement && root.contains(a)) { target = a; by = 'focus'; }
		if (!target) {
			by = 'screen';
			const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
			for (let e = walker.nextNode(); e; e = walker.nextNode()) {
				const r = e.getBoundingClientRect();
				if (r.top >= -1 && r.height > 0 && /^(P|H[1-6]|LI|PRE|DT|DD|TD|BLOCKQUOTE|DIV)$/.test(e.tagName) && norm(e.innerText)) { target = e; break; }
			}
		}
		if (target) {
			const H = 'h1,h2,h3,h4,h5,h6,[role="heading" i]';
			const firstLine = e => ((e && e.innerText) || '').split('\n').map(norm).find(l => l) || '';
			let hh = target.closest(H);
			// A target that starts with a heading (a section) starts there; a
			// target that is no heading (a definition, an index anchor, a
			// paragraph) is read from itself, not from the next heading.
			if (!hh && by !== 'focus') {
				const inner = target.querySelector(H);
				if (inner && vis(inner) && firstLine(target) === firstLine(inner)) hh = inner;
			}
			let index = -1, next = -1, prev = -1;
			if (hh) {
				const key = norm(hh.innerText || hh.textContent).slice(0, 200);
				index = headings.findIndex(x => x.key === key && x.main);
			} else {
				for (let i = 0; i < headEls.length; i++) {
					if (!headings[i].main) continue;
					if (target.compareDocumentPosition(headEls[i]) & Node.DOCUMENT_POSITION_PRECEDING) prev = i;
					else if (next < 0 && (target.contains(headEls[i]) || (target.compareDocumentPosition(headEls[i]) & Node.DOCUMENT_POSITION_FOLLOWING))) next = i;
				}
			}
			let block = target;
			while (block && block !== root && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
			// An empty anchor (an index entry's) names the text after it.
			// An empty anchor (an index entry's) names the text after it.
			let line = firstLine(target);
			for (let n = target.nextElementSibling; !line && n; n = n.nextElementSibling) line = firstLine(n);
			if (!line) line = firstLine(block);
			here = { by, heading: index, prev, next, key: line.slice(0, 80), label: norm(target.innerText || target.textContent || target.getAttribute('aria-label')).slice(0, 120) || line.slice(0, 120) };
		}
	}
	return JSON.stringify({ title: document.title, url: location.href, text: root ? (root.innerText || '') : '', headings, pre, here, body: root === document.body });
}`

// hereJS finds where "here" is in the list: given the ids of the top
// document's numbered elements (in list order), the first one at or after
// the target of the address's #fragment when that target is on screen (an
// in-page link was just followed), else the first one whose top is on or
// below the top of the screen and that does not stay put while the page
// scrolls (fixed or sticky bars).
const hereJS = `function(ids) {
	const W = globalThis.__waymark;
	if (!W) return JSON.stringify({ index: -1 });
	let target = null;
	try {
		const h = decodeURIComponent(location.hash.slice(1));
		if (h) target = document.getElementById(h) || document.getElementsByName(h)[0] || null;
	} catch (e) { /* a malformed fragment names nothing */ }
	if (target) {
		const tr = target.getBoundingClientRect();
		if (tr.bottom > 0 && tr.top < innerHeight) {
			for (let i = 0; i < ids.length; i++) {
				const el = W.element(ids[i]);
				if (el && (el === target || target.contains(el) || (target.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING))) {
					return JSON.stringify({ index: i, by: 'target', label: norm(target.innerText || target.textContent) });
				}
			}
		}
	}
	const stays = el => {
		for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
			const p = getComputedStyle(e).position;
			if (p === 'fixed' || p === 'sticky') return true;
		}
		return false;
	};
	for (let i = 0; i < ids.length; i++) {
		const el = W.element(ids[i]);
		if (!el) continue;
		const r = el.getBoundingClientRect();
		if (r.top >= -1 && !stays(el)) return JSON.stringify({ index: i, by: 'scroll' });
	}
	return JSON.stringify({ index: ids.length, by: 'scroll' });
	function norm(s) { return (s == null ? '' : String(s)).replace(/[\s\u00a0\u200b]+/g, ' ').trim().slice(0, 120); }
}`

// ReadOptions choose the portion of browser_read.
type ReadOptions struct {
	From    int // character offset in the main text
	Heading int // read from this heading (its number in the page's headings, from 1)
	Chars   int // portion size (default 1500)
	// Here reads from "here": the target of the address's #fragment (an
	// in-page link just followed), else the focused element, else the top
	// of the screen.
	Here bool
	// ContinueURL is the address of the page the last portion came from:
	// when the page is another one now, reading starts again from the top.
	ContinueURL string
}

// ReadResult is one portion of the page's main text.
type ReadResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	From    int    `json:"from"`
	Next    int    `json:"next"`
	Total   int    `json:"total"`
	HasMore bool   `json:"has_more"`
	// Heading is the heading the portion starts at, when read from one.
	Heading  *Heading `json:"heading,omitempty"`
	Headings int      `json:"headings"`
	// Here names where reading from here started (a heading, a paragraph's
	// first line), and HereBy how it was found: target, focus or screen.
	Here   string `json:"here,omitempty"`
	HereBy string `json:"here_by,omitempty"`
	Note   string `json:"note,omitempty"`
	Text   string `json:"text"`
	// OtherPage: the page is another one than ContinueURL, read from its
	// start; PlaceLost: the place asked for (here) was not found, read
	// from the start. The note says so; these are for the doors that say
	// it in their own words.
	OtherPage bool `json:"-"`
	PlaceLost bool `json:"-"`
}

// readable is the page's main text and numbered headings.
type readable struct {
	title, url string
	text       []rune
	headings   []Heading
	// here is where "here" is in text (-1: not found), and what it is.
	here      int
	hereLabel string
	hereBy    string
	// body: the page has no main landmark or article; its text is the
	// whole body's, menus too.
	body bool
}

// Bounds of the menu passed before a page's main content.
const (
	maxMenuChars = 4000
	maxMenuLine  = 80
	minMenuLines = 2
)

// mainStart is where the main content starts in the text of a page with no
// main landmark or article: at its first h1 (else its first heading) when
// only a menu stands before it, short lines ("Home", "About", "Prev | Up |
// Home | Next"), at least 2 of them. 0 when the text starts with content.
func (r *readable) mainStart() int {
	if !r.body {
		return 0
	}
	at := -1
	for _, h := range r.headings {
		if h.At >= 0 && h.Level == 1 {
			at = h.At
			break
		}
	}
	if at < 0 {
		for _, h := range r.headings {
			if h.At >= 0 {
				at = h.At
				break
			}
		}
	}
	if at <= 0 || at > maxMenuChars || at > len(r.text) {
		return 0
	}
	lines := strings.Split(strings.TrimSpace(string(r.text[:at])), "\n")
	if len(lines) < minMenuLines {
		return 0
	}
	for _, l := range lines {
		if len([]rune(l)) > maxMenuLine {
			return 0
		}
	}
	return at
}

// readPage gets the page's readable text (the session lock is held).
func (s *Session) readPage(ctx context.Context) (*readable, error) {
	return s.readPageAt(ctx, false)
}

// readPageAt is readPage that also places "here" (the fragment's target,
// the focus, or the top of the screen) in the text when here is true.
func (s *Session) readPageAt(ctx context.Context, here bool) (*readable, error) {
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Title    string `json:"title"`
		URL      string `json:"url"`
		Text     string `json:"text"`
		Headings []struct {
			Level int    `json:"level"`
			Text  string `json:"text"`
			Main  bool   `json:"main"`
			Key   string `json:"key"`
			After string `json:"after"`
		} `json:"headings"`
		Pre  []string `json:"pre"`
		Body bool     `json:"body"`
		Here *struct {
			By      string `json:"by"`
			Heading int    `json:"heading"`
			Prev    int    `json:"prev"`
			Next    int    `json:"next"`
			Key     string `json:"key"`
			Label   string `json:"label"`
		} `json:"here"`
	}
	if err := s.evalIn(ctx, w, readJS, map[string]any{"here": here}, &raw); err != nil {
		return nil, failWith(KindReading, err)
	}
	keys := map[string]bool{}
	for _, h := range raw.Headings {
		if h.Main {
			keys[spaced(h.Key)] = true
		}
	}
	text := saidOnce(readableText(raw.Text, raw.Pre...), keys)
	r := &readable{title: spaced(raw.Title), url: raw.URL, text: []rune(text), here: -1, body: raw.Body}
	pos := 0 // byte offset in text: headings come in document order
	for i, h := range raw.Headings {
		hd := Heading{Number: i + 1, Level: h.Level, Text: h.Text, At: -1}
		if h.Main && h.Key != "" {
			j := -1
			if h.After != "" {
				j = strings.Index(text[pos:], h.Key+"\n"+spaced(h.After))
			}
			if j < 0 {
				j = strings.Index(text[pos:], h.Key)
			}
			if j >= 0 {
				hd.At = utf8.RuneCountInString(text[:pos+j])
				pos += j + len(h.Key)
			}
		}
		r.headings = append(r.headings, hd)
	}
	if h := raw.Here; h != nil {
		r.hereBy, r.hereLabel = h.By, spaced(h.Label)
		at := func(i int) int {
			if i >= 0 && i < len(r.headings) {
				return r.headings[i].At
			}
			return -1
		}
		if a := at(h.Heading); a >= 0 {
			r.here, r.hereLabel = a, r.headings[h.Heading].Text
		} else if k := spaced(h.Key); k != "" {
			// The target's own first line, looked for after the heading
			// before it (a short line may stand earlier in the text too).
			from := 0
			if a := at(h.Prev); a >= 0 {
				from = len(string(r.text[:a]))
			}
			if j := strings.Index(text[from:], k); j >= 0 {
				r.here = utf8.RuneCountInString(text[:from+j])
			} else if j := strings.Index(text, k); j >= 0 {
				r.here = utf8.RuneCountInString(text[:j])
			}
		}
		if a := at(h.Next); r.here < 0 && a >= 0 {
			// The target's line is not in the text as such: the heading
			// after it is the nearest place.
			r.here, r.hereLabel = a, r.headings[h.Next].Text
		}
	}
	return r, nil
}

// evalIn calls a function of our own in world w with one JSON argument; the
// function returns a JSON string, decoded into out.
func (s *Session) evalIn(ctx context.Context, w *world, fn string, arg any, out any) error {
	args := []*proto.RuntimeCallArgument{}
	if arg != nil {
		args = append(args, &proto.RuntimeCallArgument{Value: gson.New(arg)})
	}
	res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: fn, ExecutionContextID: w.ctxID, Arguments: args,
		ReturnByValue: true}.Call(w.p.Context(ctx))
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return jsError(res.ExceptionDetails)
	}
	return json.Unmarshal([]byte(res.Result.Value.Str()), out)
}

// readableText is innerText for listening: spaces (no-break ones too)
// collapsed within a line, empty lines dropped, one paragraph a line. A line
// of program code (a line of one of pre, the page's <pre> blocks) keeps
// every space: "...     a, b = 0, 1" means its indentation.
func readableText(s string, pre ...string) string {
	code := map[string]bool{}
	for _, p := range pre {
		for _, line := range strings.Split(p, "\n") {
			if l := strings.TrimRight(line, " \t\u00a0\r"); strings.TrimSpace(l) != "" {
				code[l] = true
			}
		}
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if l := strings.TrimRight(line, " \t\u00a0\r"); code[l] {
			out = append(out, strings.NewReplacer("\t", "    ", "\u00a0", " ", "\u200b", "").Replace(l))
			continue
		}
		if strings.Contains(line, "\t") {
			// A table's row: innerText puts a tab between its cells; they
			// are said apart, not run together.
			var cells []string
			for _, c := range strings.Split(line, "\t") {
				if c = spaced(c); c != "" {
					cells = append(cells, c)
				}
			}
			if len(cells) > 0 {
				out = append(out, strings.Join(cells, " | "))
			}
			continue
		}
		if l := spaced(line); l != "" {
			// Indentation is kept (program code means it), as plain spaces.
			indent := len(line) - len(strings.TrimLeft(line, " \t\u00a0"))
			if indent > 0 && indent < 40 {
				l = strings.Repeat(" ", len([]rune(line[:indent]))) + l
			}
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// saidOnce drops a line that says a heading's text just before the heading
// itself: a navigation header repeating the chapter's title above it
// (DocBook's, on every page of Debian Reference and maint-guide) was heard
// twice, "Chapter 2. Debian package management" once from the header's
// table and once as the heading.
func saidOnce(text string, headings map[string]bool) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for i, l := range lines {
		if i+1 < len(lines) && l == lines[i+1] && headings[l] {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// spaced collapses every run of white space (no-break and zero-width spaces
// too) into one space, so titles and names are spoken, never escaped.
func spaced(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\u200b' }), " ")
}

// portion cuts about n characters of text from from: at the last paragraph
// end in its second half, else the last sentence end, else the last space.
// It returns the portion and where the next one starts.
func portion(text []rune, from, n int) (string, int) {
	if from >= len(text) {
		return "", len(text)
	}
	end := min(from+n, len(text))
	if end < len(text) {
		cut := -1
		half := from + n/2
		for i := end - 1; i > half && cut < 0; i-- {
			if text[i] == '\n' {
				cut = i + 1
			}
		}
		for i := end - 1; i > half && cut < 0; i-- {
			if (text[i] == '.' || text[i] == '!' || text[i] == '?' || text[i] == '…') && i+1 < len(text) && unicode.IsSpace(text[i+1]) {
				cut = i + 1
			}
		}
		for i := end - 1; i > half && cut < 0; i-- {
			if unicode.IsSpace(text[i]) {
				cut = i
			}
		}
		if cut > 0 {
			end = cut
		}
	}
	// The next portion starts at the next line's start, so a line of code
	// keeps its indentation.
	next, nl := end, -1
	for next < len(text) && unicode.IsSpace(text[next]) {
		if text[next] == '\n' {
			nl = next
		}
		next++
	}
	if nl >= 0 {
		next = nl + 1
	}
	return strings.TrimRight(strings.TrimLeft(string(text[from:end]), "\n"), " \n"), next
}

// Read returns a portion of the page's main text: from a character offset,
// or from a numbered heading (the numbers browser_extract gives them).
func (s *Session) Read(ctx context.Context, o ReadOptions) (*ReadResult, error) {
	if o.From < 0 {
		return nil, invalid("from %d: a character offset, 0 or more", o.From)
	}
	if o.Heading < 0 {
		return nil, fail(KindHeadingsFrom1, o.Heading)
	}
	if (o.Heading > 0 && o.From > 0) || (o.Here && (o.Heading > 0 || o.From > 0)) {
		return nil, invalid("give one of from, heading and here")
	}
	if o.Chars == 0 {
		o.Chars = DefaultPortion
	}
	if o.Chars < MinPortion || o.Chars > MaxPortion {
		return nil, invalid("chars %d: use %d..%d", o.Chars, MinPortion, MaxPortion)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := s.readPageAt(ctx, o.Here)
	if err != nil {
		return nil, err
	}
	res := &ReadResult{Title: r.title, URL: r.url, Total: len(r.text), Headings: len(r.headings), From: o.From}
	// An in-page link (#fragment) keeps the reader on the same page.
	if o.ContinueURL != "" && noFragment(o.ContinueURL) != noFragment(r.url) {
		res.From, res.Note, res.OtherPage = 0, "This is another page than the one read before: reading it from the start.", true
	}
	if o.Heading > 0 {
		if o.Heading > len(r.headings) {
			if len(r.headings) == 0 {
				return nil, fail(KindNoHeadings)
			}
			return nil, fail(KindNoHeading, o.Heading, len(r.headings), len(r.headings))
		}
		h := r.headings[o.Heading-1]
		if h.At < 0 {
			return nil, fail(KindHeadingNotMain, h.Number, h.Text)
		}
		res.Heading, res.From = &h, h.At
	}
	if o.Here {
		if r.here < 0 {
			res.Note, res.PlaceLost = "The place could not be found in the main text: reading from the start.", true
		} else {
			res.From, res.Here, res.HereBy = r.here, r.hereLabel, r.hereBy
			for i := range r.headings {
				if r.headings[i].At == r.here {
					h := r.headings[i]
					res.Heading = &h
				}
			}
		}
	}
	if res.From > len(r.text) {
		return nil, fail(KindPastEnd, res.From, len(r.text))
	}
	res.Text, res.Next = portion(r.text, res.From, o.Chars)
	res.HasMore = res.Next < len(r.text)
	return res, nil
}

// ListFromHere numbers the page as List does and returns the window that
// starts at "here": the first element at or after the target of an in-page
// link just followed, else the first element at the top of the screen.
func (s *Session) ListFromHere(ctx context.Context, o ListOptions) (*ListResult, error) {
	o.Offset = 0
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// The place may lie anywhere on the page: number all of it.
	r, err := s.listFull(ctx, o)
	if err != nil {
		return nil, err
	}
	n := s.current.Load()
	if n == nil || n.gen != r.Generation || len(n.items) == 0 {
		return r, nil
	}
	var ids []string
	var at []int
	for i, it := range n.items {
		if it.Frame == "" {
			ids, at = append(ids, it.ID), append(at, i)
		}
	}
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	var here struct {
		Index int    `json:"index"`
		By    string `json:"by"`
		Label string `json:"label"`
	}
	if err := s.evalIn(ctx, w, hereJS, ids, &here); err != nil {
		return nil, failWith(KindFinding, err)
	}
	off := len(n.items)
	if here.Index >= 0 && here.Index < len(at) {
		off = at[here.Index]
	}
	if here.Index < 0 {
		off = 0
	}
	n.offset = off
	note := r.Note
	if off >= len(n.items) {
		note = strings.TrimSpace(note + fmt.Sprintf(" No element lies below this place; the page has %d in all.", len(n.items)))
		n.offset = len(n.items)
	}
	if s.overlay != nil {
		_, _, _ = s.drawOverlay(ctx, n, s.overlay.scheme)
	}
	out := n.result(note)
	out.Banners, out.Unsettled = r.Banners, r.Unsettled
	return out, nil
}

// noFragment is an address without its #fragment.
func noFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}
