package author

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
)

// The commands that answer from a tool the book already has: go to a
// chapter, the chapters that name someone, the people of the book, the
// misspelt words of a chapter.

// GoToResult is where "go to chapter 5" goes: the section's heading (the
// window moves there: the result's found), its place and first sentence.
type GoToResult struct {
	Place         string           `json:"place"`
	FirstSentence string           `json:"firstSentence"`
	Pointer       document.Pointer `json:"pointer"`
}

// goTo finds the section the command names and answers with its place and
// first sentence.
func (c *CommandAgent) goTo(ctx context.Context, in Intent) (any, error) {
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return nil, err
	}
	var out GoToResult
	err = m.Do(func(d *document.Document) error {
		h := FindScope(d, in.Scope)
		if h < 0 {
			return c.noSection(d, in.Scope, in.Russian)
		}
		out.Place, out.Pointer = d.Place(h), d.PointerTo(h)
		end := SectionEnd(d, h)
		for i := h + 1; i < end; i++ {
			if it := d.Item(i); it.Type != document.Heading && strings.TrimSpace(d.Text(i)) != "" {
				out.FirstSentence = firstSentence(d.Text(i))
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	answer := say(in.Russian, "Moved to "+out.Place, "Перешёл к месту «"+out.Place+"»")
	if f := out.FirstSentence; f != "" {
		if r, _ := utf8.DecodeRuneInString(f); !strings.ContainsRune("\"'«“„‘", r) {
			// A sentence that opens with its own quotation mark is not quoted twice.
			f = say(in.Russian, "“"+f+"”", "«"+f+"»")
		}
		answer += ": " + f
	}
	if out.FirstSentence == "" {
		answer += "."
	}
	c.emit(Event{Event: "answer", Text: answer})
	return out, nil
}

// ChapterMentions is one chapter that names someone, and how many of its
// paragraphs do.
type ChapterMentions struct {
	Place      string `json:"place"`
	Paragraphs int    `json:"paragraphs"`
	Index      int    `json:"index"` // the first such paragraph
}

// ChaptersResult lists the chapters that name X, in the book's order.
type ChaptersResult struct {
	Query       string            `json:"query"`
	Chapters    []ChapterMentions `json:"chapters"`
	Paragraphs  int               `json:"paragraphs"`
	Occurrences int               `json:"occurrences"`
}

// chapters lists the chapters that name the object (in any word form unless
// "exactly"), with how many paragraphs of each do.
func (c *CommandAgent) chapters(ctx context.Context, in Intent) (any, error) {
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	f, err := call(ctx, c, manuscript.FindRef, findAll(in, sp))
	if err != nil {
		return nil, err
	}
	out := ChaptersResult{Query: in.Object, Chapters: []ChapterMentions{}, Paragraphs: f.Count, Occurrences: f.Occurrences}
	for _, mt := range f.Matches {
		p := c.place(mt.Index)
		if n := len(out.Chapters); n > 0 && out.Chapters[n-1].Place == p {
			out.Chapters[n-1].Paragraphs++
			continue
		}
		out.Chapters = append(out.Chapters, ChapterMentions{Place: p, Paragraphs: 1, Index: mt.Index})
	}
	ru := in.Russian
	if len(out.Chapters) == 0 {
		answer := say(ru, fmt.Sprintf("No chapter mentions %q.", in.Object), fmt.Sprintf("«%s» не упоминается ни в одной главе.", in.Object))
		c.emit(Event{Event: "answer", Text: answer})
		return out, nothing{answer}
	}
	var list []string
	for _, ch := range out.Chapters {
		list = append(list, fmt.Sprintf("%s (%d)", ch.Place, ch.Paragraphs))
	}
	n := len(out.Chapters)
	var answer string
	if ru {
		answer = fmt.Sprintf("«%s» упоминается в %d %s (в скобках — число абзацев): %s.", in.Object, n, ruPlural(n, "главе", "главах", "главах"), strings.Join(list, "; "))
	} else {
		answer = fmt.Sprintf("%q is mentioned in %s (paragraphs in brackets): %s.", in.Object, enCount(n, "chapter"), strings.Join(list, "; "))
	}
	c.emit(Event{Event: "answer", Text: answer})
	return out, nil
}

// characters answers with the character index: the people named most.
func (c *CommandAgent) characters(ctx context.Context, in Intent) (any, error) {
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	r, err := callShown(ctx, c, manuscript.CharactersRef, manuscript.CharactersArgs{ItemRange: sp.itemRange()},
		func(v manuscript.CharactersResult) any { return peopleOf(v) })
	if err != nil {
		return nil, err
	}
	ru := in.Russian
	in2 := ""
	if !sp.Whole {
		in2 = say(ru, " in "+sp.Where, " — "+sp.Where)
	}
	if r.Count == 0 {
		answer := say(ru, "I found no one named at least three times"+in2+".", "Не нашёл никого, кто назван хотя бы три раза"+in2+".")
		c.emit(Event{Event: "answer", Text: answer})
		return r, nothing{answer}
	}
	people := slices.Clone(r.Characters)
	slices.SortStableFunc(people, func(a, b manuscript.CharacterView) int { return cmp.Compare(b.Mentions, a.Mentions) })
	top := people[:min(len(people), 10)]
	var list []string
	for _, p := range top {
		list = append(list, fmt.Sprintf("%s (%d)", p.Name, p.Mentions))
	}
	var answer string
	if ru {
		answer = fmt.Sprintf("Главные герои%s — чаще всех названы: %s. Всего людей в указателе: %d (панель «Персонажи»).", in2, strings.Join(list, ", "), r.Count)
	} else {
		answer = fmt.Sprintf("The main characters%s, by how often they are named: %s. %d people in the index in all (the Characters panel).", in2, strings.Join(list, ", "), r.Count)
	}
	c.emit(Event{Event: "answer", Text: answer})
	return peopleOf(r), nil
}

// People is the character index as a command answers with it: each person
// by how often they are named, with their forms and first mention (the
// Characters tool, or panel, gives every mention).
type People struct {
	Count  int      `json:"count"`
	People []Person `json:"people"`
}

// Person is one entry of People.
type Person struct {
	Name     string   `json:"name"`
	Forms    []string `json:"forms"`
	Mentions int      `json:"mentions"`
	First    string   `json:"first"` // where the first mention is
	Chapters int      `json:"chapters"`
}

// maxPeople bounds the people a command's result lists (the most named).
const maxPeople = 50

func peopleOf(r manuscript.CharactersResult) People {
	out := People{Count: r.Count, People: []Person{}}
	for _, p := range r.Characters {
		out.People = append(out.People, Person{Name: p.Name, Forms: p.Forms, Mentions: p.Mentions, First: p.First.Section, Chapters: len(p.Chapters)})
	}
	slices.SortStableFunc(out.People, func(a, b Person) int { return cmp.Compare(b.Mentions, a.Mentions) })
	out.People = out.People[:min(len(out.People), maxPeople)]
	return out
}

// SpellingPlace is a misspelt word of a scope: where each occurrence is.
type SpellingPlace struct {
	Word   string               `json:"word"`
	Count  int                  `json:"count"`
	Places []SpellingOccurrence `json:"places"`
}

// SpellingOccurrence is one place of a misspelt word: its chapter, and the
// word's bytes (UTF-8) and UTF-16 code units in the book.
type SpellingOccurrence struct {
	Place     string `json:"place"`
	FromByte  int    `json:"fromByte"`
	ToByte    int    `json:"toByte"`
	FromUtf16 int    `json:"fromUtf16"`
	ToUtf16   int    `json:"toUtf16"`
}

// SpellingReport is what "fix the typos in chapter 2" answers: the words no
// dictionary knows, with their places in the book. Nothing is changed: the
// author corrects each one (a replace command, or the editor).
type SpellingReport struct {
	Where   string          `json:"where"`
	Words   []SpellingPlace `json:"words"`
	More    bool            `json:"more"`
	Changed bool            `json:"changed"`
}

// spelling lists the misspelt words of the scope (the whole book, a chapter)
// with their places, and changes nothing.
func (c *CommandAgent) spelling(ctx context.Context, in Intent) (any, error) {
	ru := in.Russian
	sp, err := c.rangeOf(in.Scope, ru)
	if err != nil {
		return nil, err
	}
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return nil, err
	}
	var text string
	var base int
	var src []byte
	_ = m.Do(func(d *document.Document) error {
		src = append([]byte(nil), d.Source()...)
		if !sp.Whole && sp.Hi > sp.Lo {
			base = d.Item(sp.Lo).Start
			text = string(src[base:d.Item(sp.Hi-1).End])
		}
		return nil
	})
	const maxText = 200_000
	args := manuscript.SpellingArgs{Limit: 1000}
	if !sp.Whole {
		if len([]rune(text)) > maxText {
			return nil, fmt.Errorf("%s", say(ru, fmt.Sprintf("%s is too long to check at once (over %d characters); name a chapter", sp.Where, maxText),
				fmt.Sprintf("«%s» слишком длинный, чтобы проверить его разом (больше %d знаков); назовите главу", sp.Where, maxText)))
		}
		args.Text = text
	}
	r, err := call(ctx, c, manuscript.SpellingRef, args)
	if err != nil {
		return nil, err
	}
	idx := document.NewUTF16Index(src)
	out := SpellingReport{Where: sp.Where, Words: []SpellingPlace{}, More: r.More}
	at := map[string]int{}
	for _, w := range r.Words {
		from, to := base+w.FromByte, base+w.ToByte
		k, seen := at[w.Word]
		if !seen {
			k = len(out.Words)
			at[w.Word] = k
			out.Words = append(out.Words, SpellingPlace{Word: w.Word})
		}
		sw := &out.Words[k]
		if sp.Whole {
			sw.Count = w.Count // the book's list: the first place, and how often
		} else {
			sw.Count++ // the chapter's: every place
		}
		pl := c.placeAtByte(m, from)
		sw.Places = append(sw.Places, struct {
			Place     string `json:"place"`
			FromByte  int    `json:"fromByte"`
			ToByte    int    `json:"toByte"`
			FromUtf16 int    `json:"fromUtf16"`
			ToUtf16   int    `json:"toUtf16"`
		}{pl, from, to, idx.Pos(from), idx.Pos(to)})
	}
	where := say(ru, "the book", "книге")
	if !sp.Whole {
		where = sp.Where
	}
	if len(out.Words) == 0 {
		answer := say(ru, fmt.Sprintf("No misspelt words in %s: the dictionaries know every word. Nothing was changed.", where),
			fmt.Sprintf("Опечаток не нашёл (%s): словари знают все слова. Ничего не изменено.", where))
		c.emit(Event{Event: "answer", Text: answer})
		return out, nil
	}
	var list []string
	for _, w := range out.Words[:min(len(out.Words), 12)] {
		s := w.Word
		switch {
		case sp.Whole && w.Count > 1:
			s += fmt.Sprintf(" (%d×, %s)", w.Count, say(ru, "first in ", "впервые — ")+w.Places[0].Place)
		case sp.Whole:
			s += " (" + w.Places[0].Place + ")"
		case w.Count > 1:
			s += fmt.Sprintf(" (%d×)", w.Count)
		}
		list = append(list, s)
	}
	more := ""
	if len(out.Words) > len(list) || out.More {
		more = say(ru, " and more", " и другие")
	}
	n := len(out.Words)
	example := out.Words[0].Word
	var answer string
	if ru {
		answer = fmt.Sprintf("Словари не знают %d %s (%s): %s%s. Ничего не изменено: чтобы исправить, скажите, например, «замени «%s» на «…»%s» — или поправьте в тексте.",
			n, ruPlural(n, "слово", "слова", "слов"), where, strings.Join(list, ", "), more, example, scopeWordsRU(in.Scope))
	} else {
		answer = fmt.Sprintf("%s the dictionaries do not know in %s: %s%s. Nothing was changed: to correct one, say e.g. replace %q with \"…\"%s, or edit the text.",
			enCount(n, "word"), where, strings.Join(list, ", "), more, example, scopeWordsEN(in.Scope))
	}
	c.emit(Event{Event: "answer", Text: answer})
	return out, nil
}

// placeAtByte names where a byte of the book is.
func (c *CommandAgent) placeAtByte(m *manuscript.Manuscript, b int) string {
	out := ""
	_ = m.Do(func(d *document.Document) error {
		if i := d.IndexContaining(b); i >= 0 {
			out = d.Place(i)
		}
		return nil
	})
	return out
}

// scopeWordsEN / RU say a numbered scope again for a suggested command.
func scopeWordsEN(s Scope) string {
	if s.Kind == ScopeSection {
		return " in " + s.section()
	}
	return ""
}

func scopeWordsRU(s Scope) string {
	if s.Kind == ScopeSection && s.Within == nil {
		prep := map[string]string{"chapter": "в главе", "part": "в части", "book": "в томе"}
		return fmt.Sprintf(" %s %d", prep[s.Ref.Kind], s.Ref.N)
	}
	return ""
}
