package desktop

import "github.com/waymark/waymark/backend/manuscript"

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
	More      bool           `json:"more"` // there were more than the list holds
}

// Spelling checks the whole manuscript with the Russian and English
// dictionaries and lists the words they do not know, in the order they first
// occur (what the window's spelling list shows a screen reader; WebKitGTK
// underlines the same words in the text): the Spelling tool.
func (a *App) Spelling() (SpellingResult, error) {
	var r manuscript.SpellingResult
	if err := a.call(a.context(), "Spelling", manuscript.SpellingArgs{Limit: 300}, &r); err != nil {
		return SpellingResult{}, err
	}
	out := SpellingResult{Revision: r.Revision, Languages: r.Languages, Words: make([]SpellingWord, 0, len(r.Words)), More: r.More}
	for _, w := range r.Words {
		out.Words = append(out.Words, SpellingWord{Word: w.Word, From: w.FromUtf16, To: w.ToUtf16, Count: w.Count})
	}
	return out, nil
}
