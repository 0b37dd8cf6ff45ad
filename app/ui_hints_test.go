package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-rod/rod/lib/input"
)

// hintsJS reads every field's placeholder and, for the fields that show an
// example, the text of the first element their aria-describedby names.
const hintsJS = `(ids) => JSON.stringify({
	// A placeholder that is the field's own name, never drawn, is allowed (Orca 43
	// says no placeholder equal to the name).
	placeholders: [...document.querySelectorAll('[placeholder]')]
		.filter((el) => el.placeholder !== el.labels?.[0]?.textContent.trim() || getComputedStyle(el, '::placeholder').color !== 'rgba(0, 0, 0, 0)')
		.map((el) => el.id || el.tagName),
	hints: Object.fromEntries(ids.map((id) => {
		const el = document.getElementById(id);
		if (!el) return [id, 'no such field'];
		const first = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)[0];
		const h = first ? document.getElementById(first) : null;
		if (!h) return [id, 'no description'];
		if (h.closest('[aria-hidden=true]') || getComputedStyle(h).display === 'none') return [id, 'hidden: ' + h.textContent];
		return [id, h.textContent.trim()];
	})),
})`

// TestUIFieldHints: no field of the window has a placeholder (but its own
// name, not drawn), which Orca 43 reads as an empty field's value ("Number command or goal entry go to
// example.org · list …", "Путь к файлу Markdown entry /home/you/novel.md.");
// each field's example is a hint shown under it and given as its description
// (aria-describedby), so Orca says the field's name, then the example once.
// On the code before, eight fields had placeholders.
func TestUIFieldHints(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# A Book\n\n## One\n\nIt was a quiet evening.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "w.db"))
	// Every workspace drawn once (Settings and Browser are loaded when first
	// shown), then the New dialog open over the text.
	e.keys(input.AltLeft, input.Digit3)
	e.waitText("label[for=model-url]", "Server address")
	e.keys(input.AltLeft, input.Digit2)
	e.waitText("label[for=browse-input]", "Number command or goal")
	e.keys(input.AltLeft, input.Digit1)
	e.keys(input.ControlLeft, input.KeyN)
	e.waitText("dialog[open] #new-title", "New book")

	want := map[string]string{
		"command":        `For example: find the first mention of "Zvezdochkin"`,
		"q":              "For example: Zvezdochkin",
		"set-name":       "For example: Natasha scenes",
		"new-book-title": "For example: The Lighthouse Keeper",
		"new-book-path":  "For example: /home/you/novel.md",
		"open-path":      "For example: /home/you/novel.md",
		"model-url":      "For example: http://127.0.0.1:11434/v1",
		"model-name":     "For example: llama3.1:8b",
		"browse-input":   "For example: go to example.org · list · click 5 · type 3 hello",
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	var got struct {
		Placeholders []string          `json:"placeholders"`
		Hints        map[string]string `json:"hints"`
	}
	if err := json.Unmarshal([]byte(e.js(hintsJS, ids)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Placeholders) > 0 {
		t.Errorf("fields with a placeholder (Orca 43 reads it as the value): %v", got.Placeholders)
	}
	for id, w := range want {
		if got.Hints[id] != w {
			t.Errorf("#%s is described by %q, want the example %q", id, got.Hints[id], w)
		}
	}
}
