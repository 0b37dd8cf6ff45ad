package browser

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Heading is one heading of the page outline.
type Heading struct {
	// Number counts the page's visible headings from 1 in document order:
	// "read from heading N" goes by it.
	Number int    `json:"number,omitempty"`
	Level  int    `json:"level"`
	Text   string `json:"text"`
	// At is where the heading starts in the main text (characters, for
	// browser_read); -1 for a heading outside it (a menu, a side panel).
	At int `json:"at"`
}

// Landmark is one region of the page (banner, navigation, main, search, …).
type Landmark struct {
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
}

// Field is one form field with its label; Number is its number in the current
// list when that list is still valid.
type Field struct {
	Number int    `json:"number,omitempty"`
	Label  string `json:"label"`
	Kind   string `json:"kind"`
	Type   string `json:"type,omitempty"`
	Value  string `json:"value,omitempty"`
	// Typed is how many characters were typed into the field; its value is
	// then never given (typed.go).
	Typed    int   `json:"typed,omitempty"`
	Checked  *bool `json:"checked,omitempty"`
	Required bool  `json:"required,omitempty"`
	Disabled bool  `json:"disabled,omitempty"`

	id string // data-blind-id, when the element has one
}

// Summary is browser_extract's answer: the plain text (Text) is what a blind
// user listens to; the parts are there for programs.
type Summary struct {
	Title     string     `json:"title"`
	URL       string     `json:"url"`
	Language  string     `json:"language,omitempty"`
	Headings  []Heading  `json:"headings"`
	Landmarks []Landmark `json:"landmarks"`
	MainText  string     `json:"main_text"`
	// TextChars is the length of the whole main text; MoreAt, when the gist
	// is not all of it, is where browser_read goes on (from).
	TextChars int `json:"text_chars"`
	MoreAt    int `json:"more_at,omitempty"`
	// MainAt, when not 0, is where the gist starts: the page's menus before
	// its first heading were passed (browser_read from 0 reads them).
	MainAt int `json:"main_at,omitempty"`
	// HeadingsTotal is how many headings the page has; Headings is the
	// window of them from HeadingsFrom (0-based), at most 60.
	HeadingsTotal int     `json:"headings_total"`
	HeadingsFrom  int     `json:"headings_from,omitempty"`
	Fields        []Field `json:"fields"`
	// Live are the page's status and alert messages (what just happened).
	Live []LiveMessage `json:"live,omitempty"`
	Text string        `json:"text"`
}

// LiveMessage is the text of a status or alert region.
type LiveMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// MaxGist bounds the main-text gist of a summary.
const MaxGist = 1500

// Extract summarises the page for listening: title, address, headings
// outline, landmarks, a gist of the main text (≤ 1500 characters) and the form
// fields with their labels (never a password's value). Only mode "summary"
// exists.
func (s *Session) Extract(ctx context.Context, mode string) (*Summary, error) {
	return s.ExtractFrom(ctx, mode, 0)
}

// rawSummary is the overlay's summary of the top document.
type rawSummary struct {
	Token     string        `json:"token"`
	Title     string        `json:"title"`
	URL       string        `json:"url"`
	Lang      string        `json:"lang"`
	Headings  []Heading     `json:"headings"`
	Landmarks []Landmark    `json:"landmarks"`
	Text      string        `json:"text"`
	Live      []LiveMessage `json:"live"`
	Fields    []struct {
		Field
		ID string `json:"id"`
	} `json:"fields"`
}

// ExtractFrom is Extract with the headings window starting at heading
// headingsFrom+1 ("more headings").
func (s *Session) ExtractFrom(ctx context.Context, mode string, headingsFrom int) (*Summary, error) {
	if mode != "" && mode != "summary" {
		return nil, invalid("mode %q: only summary is supported", mode)
	}
	if headingsFrom < 0 {
		return nil, invalid("headings_from %d: 0 or more", headingsFrom)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	var raw rawSummary
	if err := s.call(ctx, w, "summary", nil, &raw); err != nil {
		return nil, err
	}
	sum := &Summary{Title: spaced(raw.Title), URL: raw.URL, Language: raw.Lang, Headings: raw.Headings, Landmarks: raw.Landmarks,
		MainText: gist(raw.Text, MaxGist), Live: raw.Live}
	for i := range sum.Headings {
		sum.Headings[i].At = -1 // unknown unless the reading below places it
	}
	s.placeSummary(ctx, sum, headingsFrom)
	for _, f := range raw.Fields {
		f.Field.id = f.ID
		f.Field.Typed = s.hideTyped("", f.ID, &f.Field.Value)
		sum.Fields = append(sum.Fields, f.Field)
	}
	if sum.Headings == nil {
		sum.Headings = []Heading{}
	}
	if sum.Landmarks == nil {
		sum.Landmarks = []Landmark{}
	}
	if sum.Fields == nil {
		sum.Fields = []Field{}
	}
	s.numberSummaryFields(ctx, w, sum, raw.Token)
	sum.Fields = onceEach(sum.Fields)
	sum.Text = summaryText(sum)
	return sum, nil
}

// placeSummary makes the gist the first portion of the text browser_read
// reads, and numbers the headings as browser_read numbers them (the window
// from headingsFrom), so a listener goes on with "read more" or "read from
// heading N".
func (s *Session) placeSummary(ctx context.Context, sum *Summary, headingsFrom int) {
	rd, err := s.readPage(ctx)
	if err != nil {
		sum.HeadingsTotal = len(sum.Headings)
		return
	}
	sum.MainAt = rd.mainStart()
	first, next := portion(rd.text, sum.MainAt, MaxGist)
	// One block a line, as the page shows it (code keeps its lines).
	sum.MainText, sum.TextChars = first, len(rd.text)
	if next < len(rd.text) {
		sum.MainText += " …"
		sum.MoreAt = next
	}
	from := min(headingsFrom, len(rd.headings))
	sum.Headings, sum.HeadingsTotal, sum.HeadingsFrom = rd.headings[from:min(len(rd.headings), from+maxSummaryHeads)], len(rd.headings), from
}

// describes reports whether numbering n still describes the top document
// whose token is given.
func (n *numbering) describes(token string) bool {
	return n != nil && n.staleReason() == "" && len(n.frames) > 0 && n.frames[0].token == token
}

// numberSummaryFields gives the summary's fields the numbers to act by. A
// page with fields and no list of its own yet is numbered first, so each
// field is said with its number (issue 23, point 8).
func (s *Session) numberSummaryFields(ctx context.Context, w *world, sum *Summary, token string) {
	if len(sum.Fields) > 0 && !s.current.Load().describes(token) {
		if _, err := s.listFull(ctx, ListOptions{}); err == nil {
			if again, ids, ok := s.summaryIDs(ctx, w, len(sum.Fields)); ok {
				token = again
				setFieldIDs(sum.Fields, ids)
			}
		}
	}
	// Number the fields when the current list still describes this document.
	n := s.current.Load()
	if !n.describes(token) {
		return
	}
	n.numberFields(sum.Fields)
	if !n.partial || !slices.ContainsFunc(sum.Fields, func(f Field) bool { return f.Number == 0 }) {
		return
	}
	// A field past a first window's prefix has no number yet: number the
	// rest of the page, the prefix keeping its numbers (as a focus move
	// does), so the listener hears every field's number. The fields it
	// numbers get their ids then: ask for them again.
	if _, err := s.listFull(ctx, ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}); err != nil {
		return
	}
	full := s.current.Load()
	if again, ids, ok := s.summaryIDs(ctx, w, len(sum.Fields)); ok && full != nil && len(full.frames) > 0 && full.frames[0].token == again {
		setFieldIDs(sum.Fields, ids)
		full.numberFields(sum.Fields)
	}
}

// summaryIDs asks the overlay's summary again for the document's token and
// its fields' ids; ok only when it answered with want fields.
func (s *Session) summaryIDs(ctx context.Context, w *world, want int) (token string, ids []string, ok bool) {
	var again struct {
		Token  string `json:"token"`
		Fields []struct {
			ID string `json:"id"`
		} `json:"fields"`
	}
	if err := s.call(ctx, w, "summary", nil, &again); err != nil || len(again.Fields) != want {
		return "", nil, false
	}
	for _, f := range again.Fields {
		ids = append(ids, f.ID)
	}
	return again.Token, ids, true
}

func setFieldIDs(fields []Field, ids []string) {
	for i := range fields {
		fields[i].id = ids[i]
	}
}

// onceEach keeps each field once: a field the numbering does not hold (a
// hidden copy of a search box) goes when another of the same label and kind
// has a number, and a field said twice under one number is said once.
func onceEach(fields []Field) []Field {
	numbered := map[string]bool{}
	for _, f := range fields {
		if f.Number > 0 {
			numbered[f.Label+"\x00"+f.Kind] = true
		}
	}
	out := fields[:0]
	seen := map[string]bool{}
	for _, f := range fields {
		key := f.Label + "\x00" + f.Kind
		if f.Number == 0 && numbered[key] {
			continue
		}
		k := fmt.Sprintf("%s\x00%d", key, f.Number)
		if f.Number > 0 || f.Label != "" {
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, f)
	}
	return out
}

// numberFields gives each field its number in the numbering (0: none).
func (n *numbering) numberFields(fields []Field) {
	byID := map[string]int{}
	for _, it := range n.items {
		if it.Frame == "" {
			byID[it.ID] = it.Number
		}
	}
	for i := range fields {
		fields[i].Number = byID[fields[i].id]
	}
}

// gist cuts text at a word boundary to at most n characters.
func gist(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexAny(cut, " .,;:!?"); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

func summaryText(s *Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Title: %s\n", orNone(s.Title))
	fmt.Fprintf(&b, "Address: %s\n", s.URL)
	if len(s.Headings) > 0 {
		b.WriteString("Headings:\n")
		for _, h := range s.Headings {
			if h.Number > 0 {
				fmt.Fprintf(&b, "%s%d. Level %d: %s\n", strings.Repeat("  ", max(0, min(h.Level, 6)-1)), h.Number, h.Level, h.Text)
			} else {
				fmt.Fprintf(&b, "%s- Level %d: %s\n", strings.Repeat("  ", max(0, min(h.Level, 6)-1)), h.Level, h.Text)
			}
		}
		if shown := s.HeadingsFrom + len(s.Headings); s.HeadingsFrom > 0 || shown < s.HeadingsTotal {
			fmt.Fprintf(&b, "Headings %d to %d of %d", s.HeadingsFrom+1, shown, s.HeadingsTotal)
			if shown < s.HeadingsTotal {
				fmt.Fprintf(&b, "; the rest: browser_extract with headings_from %d", shown)
			}
			b.WriteString(".\n")
		}
	} else {
		b.WriteString("Headings: none\n")
	}
	if len(s.Landmarks) > 0 {
		parts := make([]string, 0, len(s.Landmarks))
		for _, l := range s.Landmarks {
			if l.Name != "" {
				parts = append(parts, fmt.Sprintf("%s %q", l.Role, l.Name))
			} else {
				parts = append(parts, l.Role)
			}
		}
		fmt.Fprintf(&b, "Regions: %s\n", strings.Join(parts, ", "))
	}
	for _, l := range s.Live {
		if l.Role == "alert" {
			fmt.Fprintf(&b, "Alert: %s\n", l.Text)
		} else {
			fmt.Fprintf(&b, "Status: %s\n", l.Text)
		}
	}
	if s.MainAt > 0 {
		fmt.Fprintf(&b, "The %d characters of menus before the first heading were passed (browser_read from 0 reads them).\n", s.MainAt)
	}
	if s.MoreAt > 0 {
		fmt.Fprintf(&b, "Main text (characters %d to %d of %d; the rest: browser_read from %d):\n%s\n", s.MainAt+1, s.MoreAt, s.TextChars, s.MoreAt, s.MainText)
	} else {
		fmt.Fprintf(&b, "Main text:\n%s\n", orNone(s.MainText))
	}
	if len(s.Fields) > 0 {
		b.WriteString("Form fields:\n")
		for _, f := range s.Fields {
			b.WriteString("- ")
			if f.Number > 0 {
				fmt.Fprintf(&b, "%d: ", f.Number)
			}
			kind := f.Kind
			if f.Type == "password" {
				kind = "password field"
			}
			fmt.Fprintf(&b, "%s (%s)", orNone(f.Label), kind)
			if f.Value != "" {
				fmt.Fprintf(&b, " = %q", f.Value)
			}
			if f.Typed > 0 {
				fmt.Fprintf(&b, ", %d characters typed", f.Typed)
			}
			if f.Checked != nil {
				if *f.Checked {
					b.WriteString(", checked")
				} else {
					b.WriteString(", not checked")
				}
			}
			if f.Required {
				b.WriteString(", required")
			}
			if f.Disabled {
				b.WriteString(", disabled")
			}
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// ScreenshotResult gives the saved file's path.
type ScreenshotResult struct {
	Path     string `json:"path"`
	Bytes    int    `json:"bytes"`
	FullPage bool   `json:"full_page"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
}

// maxShotHeight bounds a full-page screenshot (endless pages).
const maxShotHeight = 16384

// Screenshot saves a PNG of the viewport (or of the whole page, up to 16384
// CSS pixels high, without resizing the viewport) into Options.ScreenshotDir.
func (s *Session) Screenshot(ctx context.Context, fullPage bool) (*ScreenshotResult, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	pi, err := s.info(ctx)
	if err != nil {
		return nil, err
	}
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	w, h := pi.Vw, pi.Vh
	if fullPage {
		w, h = math.Max(pi.Sw, pi.Vw), math.Min(math.Max(pi.Sh, pi.Vh), maxShotHeight)
		req.CaptureBeyondViewport = true
		req.Clip = &proto.PageViewport{X: 0, Y: 0, Width: w, Height: h, Scale: 1}
	}
	shot, err := req.Call(s.page.Context(ctx))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	mkdir := func(d string) error { return os.MkdirAll(d, 0o700) }
	if s.opts.ownScreenshotDir {
		mkdir = privateDir
	}
	if err := mkdir(s.opts.ScreenshotDir); err != nil {
		return nil, fmt.Errorf("screenshot folder: %w", err)
	}
	base := "waymark-" + time.Now().Format("20060102-150405.000")
	path := filepath.Join(s.opts.ScreenshotDir, base+".png")
	for i := 2; ; i++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			path = filepath.Join(s.opts.ScreenshotDir, fmt.Sprintf("%s-%d.png", base, i))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("screenshot file: %w", err)
		}
		_, werr := f.Write(shot.Data)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			return nil, fmt.Errorf("screenshot file: %v %v", werr, cerr)
		}
		break
	}
	return &ScreenshotResult{Path: path, Bytes: len(shot.Data), FullPage: fullPage, Width: int(w), Height: int(h)}, nil
}
