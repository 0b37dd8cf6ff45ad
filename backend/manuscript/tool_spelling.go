package manuscript

import (
	"context"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/spelling"
	"github.com/waymark/waymark/backend/tools"
)

// SpellingArgs bounds the list; Text, when given, is checked instead of the book.
type SpellingArgs struct {
	Limit int    `json:"limit,omitempty" jsonschema:"list at most this many words (default 300)"`
	Text  string `json:"text,omitempty" jsonschema:"check this text instead of the manuscript (at most 200000 characters, e.g. the lines on screen): every misspelt word is listed at each place it occurs, offsets relative to this text"`
}

// Refine: from 1 to 5000 words, a text of at most 200 000 characters.
func (SpellingArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "limit"), 1, 5000)
	tools.Prop(s, "text").MaxLength = jsonschema.Ptr(200_000)
}

// MisspeltWord is a word no dictionary knows: its first occurrence, in bytes
// of UTF-8 and in UTF-16 code units, and how often it occurs.
type MisspeltWord struct {
	Word      string `json:"word"`
	FromByte  int    `json:"fromByte"`
	ToByte    int    `json:"toByte"`
	FromUtf16 int    `json:"fromUtf16"`
	ToUtf16   int    `json:"toUtf16"`
	Count     int    `json:"count"`
}

// SpellingResult lists the misspelt words of the text at Revision (0 when a
// text was given).
type SpellingResult struct {
	Revision  int64          `json:"revision"`
	Languages []string       `json:"languages"`
	Words     []MisspeltWord `json:"words"`
	More      bool           `json:"more"` // there were more than the list holds
}

// speller is the one hunspell checker of the process (dictionaries are big).
var speller = sync.OnceValues(func() (*spelling.Checker, error) { return spelling.New(spelling.Dir, spelling.Languages) })

// SpellingRef is the typed handle on the Spelling tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var SpellingRef = tools.RefTo[SpellingArgs, SpellingResult]("Spelling")

func spellingTool(ws *Workspace) tools.Tool {
	return SpellingRef.Func("The words of the manuscript that neither the Russian nor the English dictionary (Debian's hunspell) knows, in the order they first occur, with how often each occurs and where it first is (fromByte/toByte in UTF-8 bytes, fromUtf16/toUtf16 in UTF-16 code units). Given a text, the words of that text instead, each place listed (what the window underlines on screen).",
		func(ctx context.Context, a SpellingArgs) (SpellingResult, error) { return Spelling(ws, a) })
}

// Spelling is the Spelling tool's handler.
func Spelling(ws *Workspace, a SpellingArgs) (SpellingResult, error) {
	sp, err := speller()
	if err != nil {
		return SpellingResult{}, err
	}
	limit := a.Limit
	if limit == 0 {
		limit = 300
	}
	var text []byte
	var rev int64
	var words []spelling.Word
	if a.Text != "" {
		text = []byte(a.Text)
		words, err = sp.Every(a.Text, limit+1)
	} else {
		m, cerr := ws.Current()
		if cerr != nil {
			return SpellingResult{}, cerr
		}
		text, rev = current(m)
		words, err = sp.Misspelt(string(text), limit+1)
	}
	if err != nil {
		return SpellingResult{}, err
	}
	out := SpellingResult{Revision: rev, Languages: sp.Languages(), Words: []MisspeltWord{}}
	if len(words) > limit {
		words, out.More = words[:limit], true
	}
	idx := document.NewUTF16Index(text)
	for _, w := range words {
		out.Words = append(out.Words, MisspeltWord{Word: w.Word, FromByte: w.From, ToByte: w.To, FromUtf16: idx.Pos(w.From), ToUtf16: idx.Pos(w.To), Count: w.Count})
	}
	return out, nil
}
