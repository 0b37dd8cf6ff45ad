package desktop

import (
	"sync"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/spelling"
)

// SpellingWord is a word of the manuscript no dictionary knows: its first
// occurrence in the editor's positions (UTF-16) and how often it occurs.
type SpellingWord struct {
	Word  string `json:"word"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	Count int    `json:"count"`
}

// SpellingResult lists the misspelt words of the manuscript at Revision,
// checked with Languages (Debian's hunspell dictionaries).
type SpellingResult struct {
	Revision  int64          `json:"revision"`
	Languages []string       `json:"languages"`
	Words     []SpellingWord `json:"words"`
	Checked   int            `json:"checked"` // words of the text that were looked up
	More      bool           `json:"more"`    // there were more than the list holds
}

// spellingLimit is the most words listed at once.
const spellingLimit = 300

var (
	spellOnce sync.Once
	speller   *spelling.Checker
	spellErr  error
)

// Spelling checks the whole manuscript with the Russian and English
// dictionaries and lists the words they do not know, in the order they first
// occur (what the window's spelling list shows a screen reader; WebKitGTK
// underlines the same words in the text).
func (a *App) Spelling() (SpellingResult, error) {
	spellOnce.Do(func() { speller, spellErr = spelling.New(spelling.Dir, spelling.Languages) })
	if spellErr != nil {
		return SpellingResult{}, spellErr
	}
	m, err := a.current()
	if err != nil {
		return SpellingResult{}, err
	}
	var text string
	var rev int64
	_ = m.Do(func(d *document.Document) error {
		text, rev = string(d.Source()), d.Rev()
		return nil
	})
	words, err := speller.Misspelt(text, spellingLimit+1)
	if err != nil {
		return SpellingResult{}, err
	}
	out := SpellingResult{Revision: rev, Languages: speller.Languages(), Words: []SpellingWord{}}
	if len(words) > spellingLimit {
		words, out.More = words[:spellingLimit], true
	}
	idx := document.NewUTF16Index([]byte(text))
	for _, w := range words {
		out.Words = append(out.Words, SpellingWord{Word: w.Word, From: idx.Pos(w.From), To: idx.Pos(w.To), Count: w.Count})
	}
	return out, nil
}
