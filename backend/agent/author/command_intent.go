package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
)

// The command agent carries out what ParseCommand read (an Intent) by calling
// the registry's tools, and answers in the command's language. This file is
// the dispatch; answers that quote the book are in command.go.

// ErrNothingDone marks a command that ran but changed or found nothing (no
// mention, no occurrence): the door reports it as a failure (`waymark agent`
// exits 1), with the answer as its message.
var ErrNothingDone = errors.New("the command found or changed nothing")

// nothing is a nothing-done outcome with the answer the author reads.
type nothing struct{ answer string }

func (e nothing) Error() string        { return e.answer }
func (e nothing) Is(target error) bool { return target == ErrNothingDone }

// say picks the answer's language.
func say(ru bool, en, rus string) string {
	if ru {
		return rus
	}
	return en
}

// carryOut runs an understood intent.
func (c *CommandAgent) carryOut(ctx context.Context, in Intent, cmd string) (any, error) {
	switch in.Verb {
	case VerbFind:
		return c.find(ctx, in, cmd)
	case VerbContinue:
		return c.find(ctx, Intent{Verb: VerbFind, Which: "next", Russian: in.Russian}, cmd)
	case VerbCollect:
		return c.collect(ctx, in, cmd)
	case VerbCount:
		return c.count(ctx, in)
	case VerbReplace:
		return c.replace(ctx, in)
	case VerbInsert:
		return c.insert(ctx, in)
	case VerbDelete:
		return c.deleteItems(ctx, in)
	case VerbSummarise:
		return c.summarise(ctx, in)
	case VerbUndo, VerbRedo:
		return c.undo(ctx, in, in.Verb == VerbRedo)
	case VerbGoTo:
		return c.goTo(ctx, in)
	case VerbChapters:
		return c.chapters(ctx, in)
	case VerbCharacters:
		return c.characters(ctx, in)
	case VerbSpelling:
		return c.spelling(ctx, in)
	}
	return nil, c.refusal(in, cmd)
}

// span is a range of items a command reads or changes, and how to name it.
type span struct {
	Lo, Hi int
	Whole  bool
	Where  string // "BOOK ONE: 1805, CHAPTER III", «Том 1, Часть первая, III»
}

// itemRange is the span as the tools' arguments give it (none: the whole
// book).
func (s span) itemRange() manuscript.ItemRange {
	if s.Whole {
		return manuscript.ItemRange{}
	}
	lo, hi := s.Lo, s.Hi
	return manuscript.ItemRange{FromIndex: &lo, ToIndex: &hi}
}

// limit limits a reading to the span.
func (s span) limit(o CursorAgentOptions) CursorAgentOptions {
	r := s.itemRange()
	o.FromIndex, o.ToIndex = r.FromIndex, r.ToIndex
	return o
}

// rangeOf resolves a scope to items: a section by its number, this chapter,
// the selection or from the cursor on (which need the window's cursor), or the
// whole book.
func (c *CommandAgent) rangeOf(s Scope, ru bool) (span, error) {
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return span{}, err
	}
	var out span
	err = m.Do(func(d *document.Document) error {
		out = span{Lo: 0, Hi: d.Len(), Whole: true}
		switch s.Kind {
		case "", ScopeBook:
			return nil
		case ScopeSection, ScopeAfter, ScopeFrom:
			lo, hi, ok := sectionRange(d, s)
			if !ok {
				return c.noSection(d, s, ru)
			}
			out = span{Lo: lo, Hi: hi}
			h := FindScope(d, s)
			out.Where = d.Place(h)
			switch s.Kind {
			case ScopeAfter:
				out.Where = say(ru, "after ", "после ") + out.Where
			case ScopeFrom:
				out.Where = say(ru, "from ", "начиная с ") + out.Where
			}
			return nil
		case ScopeThis, ScopeHere:
			at, err := c.cursorItem(d, ru)
			if err != nil {
				return err
			}
			if s.Kind == ScopeHere {
				out = span{Lo: at, Hi: d.Len(), Where: say(ru, "from here to the end", "отсюда до конца")}
				return nil
			}
			h := enclosing(d, at, s.Ref.Kind)
			if h < 0 {
				out = span{Lo: 0, Hi: d.Len(), Whole: true}
				return nil
			}
			out = span{Lo: h, Hi: SectionEnd(d, h), Where: d.Place(h)}
			return nil
		case ScopeSelection:
			if c.Selection == nil || c.Selection[1] <= c.Selection[0] {
				return fmt.Errorf("%s", say(ru, "nothing is selected: select the text first (in the window), or name the chapter by its number",
					"ничего не выделено: сначала выделите текст (в окне) или назовите главу по номеру"))
			}
			lo := d.IndexContaining(c.Selection[0])
			hi := d.IndexContaining(max(c.Selection[0], c.Selection[1]-1)) + 1
			out = span{Lo: max(lo, 0), Hi: min(hi, d.Len()), Where: say(ru, "the selection", "выделенный текст")}
			return nil
		}
		return nil
	})
	return out, err
}

// cursorItem is the item the cursor is in.
func (c *CommandAgent) cursorItem(d *document.Document, ru bool) (int, error) {
	if c.Cursor == nil {
		return 0, fmt.Errorf("%s", say(ru, `"this chapter" and "from here" need to know where you are: the window passes the cursor; here, name the chapter by its number (e.g. in chapter 3)`,
			"«эта глава» и «отсюда» — это там, где курсор: в окне он известен, а здесь назовите главу по номеру (например: в главе 3)"))
	}
	i := d.IndexContaining(*c.Cursor)
	if i < 0 {
		i = 0
	}
	return min(i, max(d.Len()-1, 0)), nil
}

// enclosing is the heading of the section of the given kind that holds item
// i: the nearest heading at or before it of the chapter's level (the deepest
// level of the book), or of a higher level for a part or book; -1 when none.
func enclosing(d *document.Document, i int, kind string) int {
	deepest := 0
	for j := 0; j < d.Len(); j++ {
		if it := d.Item(j); it.Type == document.Heading && it.Level > deepest {
			deepest = it.Level
		}
	}
	want := deepest
	if kind == "part" || kind == "book" {
		want = deepest - 1
		if kind == "book" {
			want = deepest - 2
		}
		want = max(want, 1)
	}
	for j := i; j >= 0; j-- {
		if it := d.Item(j); it.Type == document.Heading && it.Level <= want {
			return j
		}
	}
	return -1
}

// noSection says that no heading names the section, with how many headings
// the outline has.
func (c *CommandAgent) noSection(d *document.Document, s Scope, ru bool) error {
	heads := 0
	for i := 0; i < d.Len(); i++ {
		if d.Item(i).Type == document.Heading {
			heads++
		}
	}
	if ru {
		return fmt.Errorf("ни один заголовок не называет %s (в оглавлении %d заголовков; см. оглавление)", sectionWordsRU(s), heads)
	}
	return fmt.Errorf("no heading names %s; the outline has %d headings (see Outline)", s.section(), heads)
}

// sectionWordsRU: «главу 999», «часть 2 тома 1».
func sectionWordsRU(s Scope) string {
	acc := map[string]string{"chapter": "главу", "part": "часть", "book": "том"}
	gen := map[string]string{"chapter": "главы", "part": "части", "book": "тома"}
	out := fmt.Sprintf("%s %d", acc[s.Ref.Kind], s.Ref.N)
	if s.Within != nil {
		out += fmt.Sprintf(" %s %d", gen[s.Within.Kind], s.Within.N)
	}
	return out
}

// taskText is the task a RunCursorAgent call is given for a find or a
// collect: the command's own words carry the constraints and the scope.
func findTask(in Intent) string {
	var sb strings.Builder
	if in.Russian {
		fmt.Fprintf(&sb, "Найди первое упоминание «%s»", in.Object)
	} else {
		fmt.Fprintf(&sb, "Find the first mention of %q", in.Object)
	}
	if in.Semantic {
		sb.Reset()
		sb.WriteString(say(in.Russian, "Find the first ", "Найди первое: ") + in.Object)
	}
	constraints(&sb, in)
	return sb.String()
}

func constraints(sb *strings.Builder, in Intent) {
	if in.Exact {
		sb.WriteString(say(in.Russian, " (exactly)", " (точно)"))
	}
	if in.ExcludeHeadings {
		sb.WriteString(say(in.Russian, " (excluding headings)", " (без заголовков)"))
	}
	switch in.Only {
	case "code":
		sb.WriteString(say(in.Russian, " in code", " в коде"))
	case "quote":
		sb.WriteString(say(in.Russian, " in quotes", " в цитатах"))
	}
}

// find runs find first / next / last, and continue.
func (c *CommandAgent) find(ctx context.Context, in Intent, cmd string) (any, error) {
	key, lf := c.loadFinds(ctx)
	next, last := in.Which == "next", in.Which == "last"
	task := findTask(in)
	var taskID string
	var st findState
	if next {
		if in.Object == "" {
			var ok bool
			st, ok = lf.Tasks[lf.Last]
			if !ok {
				return nil, fmt.Errorf("%s", say(in.Russian, `there is no earlier search in this book to continue; say first: find the first mention of "X"`,
					"продолжать нечего: в этой книге ещё не было поиска; скажите сначала, например, «найди первое упоминание «Наташа»»"))
			}
			task, taskID = st.Task, st.TaskID
			was := ParseCommand(task)
			was.Russian = in.Russian
			in = was
			in.Which = "next"
		} else if s, ok := lf.Tasks[searchKey(ParseTask(task), task)]; ok {
			st, task, taskID = s, s.Task, s.TaskID
		} else if s, ok := lf.sameName(ParseTask(task)); ok {
			// «следующее упоминание Наташи» after «где впервые появляется
			// Наташа?»: the same name in another case form goes on.
			st, task, taskID = s, s.Task, s.TaskID
		}
	}
	if in.Object == "" {
		return nil, fmt.Errorf("%s", say(in.Russian, `say what to find, e.g. find the first mention of "Natasha"`, "скажите, что найти, например: найди первое упоминание «Наташа»"))
	}
	if in.Semantic {
		if !llm.Understands(c.Runtime.LLM()) {
			return nil, c.refusal(in, cmd)
		}
	}
	sp := span{Whole: true}
	if taskID == "" {
		var err error
		if sp, err = c.rangeOf(in.Scope, in.Russian); err != nil {
			return nil, err
		}
	} else {
		sp = st.Span
	}
	args := sp.limit(firstMatchArgs(task))
	if last || taskID != "" && st.Backward {
		args.Forward = false
	}
	args.TaskID = taskID
	r, err := c.readBook(ctx, args)
	if err != nil {
		return nil, err
	}
	t := ParseTask(task)
	sk := searchKey(t, task)
	lf.Last = sk
	lf.Tasks[sk] = findState{TaskID: r.TaskID, Task: task, Phrase: t.Phrase, Span: sp, Backward: !args.Forward}
	if b, err := json.Marshal(lf); err == nil && key != "" {
		_ = c.Runtime.Store.SetSetting(ctx, key, string(b))
	}
	t.Russian = in.Russian
	answer := c.answerFind(r, t, next && taskID != "", sp)
	c.emit(Event{Event: "answer", Text: answer})
	if !r.Success {
		return r, nothing{answer}
	}
	return r, nil
}

// answerFind is a find's answer: where and the sentence; or that nothing was
// found (and why); or, at the step limit, where the reading stopped.
func (c *CommandAgent) answerFind(r CursorAgentResult, t Task, next bool, sp span) string {
	what := t.Subject
	ru := t.Russian
	if r.Success {
		return c.quoteAt(*r.FirstItemIndex, t)
	}
	if r.StepLimit {
		where := r.StoppedAt
		if where == "" {
			where = say(ru, "the start", "начала")
		}
		return say(ru, fmt.Sprintf("I read up to %s without finding it (the step limit); say continue to read on.", where),
			fmt.Sprintf("Я дочитал до места «%s» и пока не нашёл (предел шагов); скажите «продолжай», чтобы читать дальше.", where))
	}
	in := ""
	if !sp.Whole && sp.Where != "" {
		in = say(ru, " in "+sp.Where, " — "+sp.Where)
	}
	reason := r.Reason
	if r.ReadToEnd {
		reason = say(ru, "read to the end of the book", "книга прочитана до конца")
		if !sp.Whole {
			reason = say(ru, "read to the end of the range", "прочитано до конца")
		}
	}
	switch {
	case ru && next:
		return fmt.Sprintf("Больше упоминаний «%s» нет%s (%s).", what, in, reason)
	case ru:
		return fmt.Sprintf("Упоминаний «%s» не найдено%s (%s).", what, in, reason)
	}
	return fmt.Sprintf("No %smention of %q found%s (%s).", map[bool]string{true: "further ", false: ""}[next], what, in, reason)
}

// collect gathers every item with the phrase (in the scope) into a set.
func (c *CommandAgent) collect(ctx context.Context, in Intent, cmd string) (any, error) {
	if in.Set == "" {
		return nil, fmt.Errorf("%s", say(in.Russian, fmt.Sprintf(`into which set? e.g. collect all mentions of %q into %q`, in.Object, strings.ToLower(in.Object)),
			fmt.Sprintf("в какой набор? например: собери все упоминания «%s» в набор «%s»", in.Object, strings.ToLower(in.Object))))
	}
	if in.Semantic {
		if !llm.Understands(c.Runtime.LLM()) {
			return nil, c.refusal(in, cmd)
		}
	}
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	ts, err := call(ctx, c, manuscript.TargetSetCreateRef, manuscript.TargetSetCreateArgs{Name: in.Set})
	if err != nil {
		return nil, err
	}
	id := ts.ID
	var sb strings.Builder
	if in.Russian {
		fmt.Fprintf(&sb, "Собери все упоминания «%s»", in.Object)
	} else {
		fmt.Fprintf(&sb, "Collect every mention of %q", in.Object)
	}
	if in.Semantic {
		sb.Reset()
		sb.WriteString(say(in.Russian, "Collect every ", "Собери все: ") + in.Object)
	}
	constraints(&sb, in)
	res, err := c.readBook(ctx, sp.limit(CursorAgentOptions{Forward: true, MaxElements: 50, MaxBytes: 16384, IncludeContent: true,
		Mode: ModeCollect, TargetSetID: id, TaskDescription: sb.String(), MaxSteps: maxSteps()}))
	if err != nil {
		return nil, err
	}
	g, err := call(ctx, c, manuscript.TargetSetGetRef, manuscript.TargetSetGetArgs{TargetSetID: id})
	if err != nil {
		return nil, err
	}
	answer := c.collectAnswer(g, nameOf(in), in.Set, in.Russian, res)
	c.emit(Event{Event: "answer", Text: answer})
	if g.Count == 0 {
		return g, nothing{answer}
	}
	return g, nil
}

// count says how often a phrase occurs, in how many paragraphs and chapters,
// and where first and last.
func (c *CommandAgent) count(ctx context.Context, in Intent) (any, error) {
	if in.Semantic {
		return nil, c.refusal(in, "")
	}
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	f, err := call(ctx, c, manuscript.FindRef, findAll(in, sp))
	if err != nil {
		return nil, err
	}
	items, occ := f.Count, f.Occurrences
	forms := say(in.Russian, "", "")
	if !in.Exact {
		forms = say(in.Russian, " (with its word forms)", " (во всех формах)")
	}
	in2 := ""
	if !sp.Whole {
		in2 = say(in.Russian, " in "+sp.Where, " — "+sp.Where)
	}
	if items == 0 {
		answer := say(in.Russian, fmt.Sprintf("%q does not occur%s%s.", in.Object, forms, in2), fmt.Sprintf("«%s»%s не встречается%s.", in.Object, forms, in2))
		c.emit(Event{Event: "answer", Text: answer})
		return f, nothing{answer}
	}
	chapters := map[string]bool{}
	var first, last string
	for k, mt := range f.Matches {
		p := c.place(mt.Index)
		chapters[p] = true
		if k == 0 {
			first = p
		}
		last = p
	}
	var answer string
	if in.Russian {
		answer = fmt.Sprintf("«%s»%s встречается %d %s в %d %s, в %d %s%s; впервые — %s, в последний раз — %s.", nameOf(in), forms,
			occ, ruPlural(occ, "раз", "раза", "раз"), items, ruPlural(items, "абзаце", "абзацах", "абзацах"),
			len(chapters), ruPlural(len(chapters), "главе", "главах", "главах"), in2, first, last)
	} else {
		answer = fmt.Sprintf("%q%s occurs %s in %s, in %s%s; first in %s, last in %s.", in.Object, forms,
			enCount(occ, "time"), enCount(items, "paragraph"), enCount(len(chapters), "chapter"), in2, first, last)
	}
	c.emit(Event{Event: "answer", Text: answer})
	return map[string]any{"occurrences": occ, "paragraphs": items, "chapters": len(chapters), "first": first, "last": last}, nil
}

// ruPlural picks the Russian noun form for n: one (1, 21), few (2–4, 22–24),
// many (5–20, 25…).
// enCount is n and the noun, plural unless n is 1: "1 paragraph", "4 paragraphs".
func enCount(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func ruPlural(n int, one, few, many string) string {
	n %= 100
	switch {
	case n%10 == 1 && n != 11:
		return one
	case n%10 >= 2 && n%10 <= 4 && (n < 12 || n > 14):
		return few
	}
	return many
}

// replace replaces every occurrence (or the first) in the scope, as one
// revision, and says how many and where.
func (c *CommandAgent) replace(ctx context.Context, in Intent) (any, error) {
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	forms := in.Forms || in.Rename && !in.Exact // a rename renames every form
	args := manuscript.ReplaceAllArgs{Query: in.Object, With: in.With, MatchOptions: manuscript.MatchOptions{Forms: forms},
		First: in.Which == "first", ItemRange: sp.itemRange()}
	if forms {
		// Every form's new form first: where one cannot be derived, nothing
		// is changed and the answer says which.
		pv := args
		pv.Preview = true
		res, err := call(ctx, c, manuscript.ReplaceAllRef, pv)
		if err != nil {
			return nil, err
		}
		if u := res.Underived; len(u) > 0 {
			return nil, nothing{underivedAnswer(in, u)}
		}
	}
	r, err := call(ctx, c, manuscript.ReplaceAllRef, args)
	if err != nil {
		if errors.Is(err, manuscript.ErrNoOccurrence) {
			return nil, nothing{c.notOccurs(in, sp)}
		}
		return nil, err
	}
	var where []string
	seen := map[string]bool{}
	for _, p := range r.Places {
		if !seen[p.Section] {
			seen[p.Section] = true
			where = append(where, p.Section)
		}
	}
	places := strings.Join(where, "; ")
	if len(where) > 4 {
		places = say(in.Russian, fmt.Sprintf("%d chapters, from %s to %s", len(where), where[0], where[len(where)-1]),
			fmt.Sprintf("в %d %s, от «%s» до «%s»", len(where), ruPlural(len(where), "главе", "главах", "главах"), where[0], where[len(where)-1]))
	}
	formsSaid := ""
	if forms {
		formsSaid = " (" + formPairs(r, in.Russian) + ")"
	}
	var answer string
	if in.Russian {
		answer = fmt.Sprintf("Заменил «%s» на «%s»: %d %s в %d %s%s — %s. Одна отмена вернёт всё.", in.Object, in.With,
			r.Count, ruPlural(r.Count, "раз", "раза", "раз"), r.Items, ruPlural(r.Items, "абзаце", "абзацах", "абзацах"), formsSaid, places)
	} else {
		answer = fmt.Sprintf("Replaced %q with %q: %s in %s%s — %s. One Undo takes it all back.", in.Object, in.With,
			enCount(r.Count, "occurrence"), enCount(r.Items, "paragraph"), formsSaid, places)
	}
	c.emit(Event{Event: "answer", Text: answer})
	return r, nil
}

// formPairs names each form replaced with its new form and count, most
// frequent first: «Марья → Мария ×522, Марьи → Марии ×131».
func formPairs(r manuscript.ReplaceAllResult, ru bool) string {
	n := map[string]int{}
	var order []string
	for _, p := range r.Places {
		for k := range p.Found {
			if k >= len(p.Replaced) {
				break
			}
			pair := p.Found[k] + " → " + p.Replaced[k]
			if n[pair] == 0 {
				order = append(order, pair)
			}
			n[pair]++
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return n[order[i]] > n[order[j]] })
	var parts []string
	for k, pair := range order {
		if k == 12 {
			parts = append(parts, say(ru, fmt.Sprintf("and %d more", len(order)-k), fmt.Sprintf("и ещё %d", len(order)-k)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", pair, n[pair]))
	}
	return strings.Join(parts, ", ")
}

// underivedAnswer: a replace with word forms that would change some forms
// and not others changes nothing, and says which forms it cannot derive.
func underivedAnswer(in Intent, u []manuscript.UnderivedForm) string {
	var parts []string
	total := 0
	for k, f := range u {
		total += f.Count
		if k < 8 {
			parts = append(parts, fmt.Sprintf("«%s» (%d)", f.Form, f.Count))
		}
	}
	if len(u) > 8 {
		parts = append(parts, say(in.Russian, fmt.Sprintf("and %d more", len(u)-8), fmt.Sprintf("и ещё %d", len(u)-8)))
	}
	list := strings.Join(parts, ", ")
	return say(in.Russian,
		fmt.Sprintf("Nothing was changed: the new form of %s cannot be derived with certainty from %q → %q (%d places). Replace those forms one by one, or say \"exactly\" to replace only %q.", list, in.Object, in.With, total, in.Object),
		fmt.Sprintf("Ничего не изменено: для %s нельзя с уверенностью вывести форму из «%s» → «%s» (%d %s). Замените эти формы по одной или скажите «точно», чтобы заменить только «%s».", list, in.Object, in.With, total, ruPlural(total, "место", "места", "мест"), in.Object))
}

func (c *CommandAgent) notOccurs(in Intent, sp span) string {
	where := say(in.Russian, "in the book", "в книге")
	if !sp.Whole {
		where = say(in.Russian, "in "+sp.Where, "— "+sp.Where)
	}
	return say(in.Russian, fmt.Sprintf("%q does not occur %s; nothing was changed.", in.Object, where),
		fmt.Sprintf("«%s» не встречается %s; ничего не изменено.", in.Object, where))
}

// insert puts text (a paragraph, or a heading) before or after a section, the
// cursor's paragraph, or the first mention of a phrase.
func (c *CommandAgent) insert(ctx context.Context, in Intent) (any, error) {
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return nil, err
	}
	target, level := -1, 0
	var where string
	after := in.Where == "after"
	switch in.Anchor.Kind {
	case ScopePhrase:
		r, err := c.findFirst(ctx, in.Anchor.Phrase, in.Russian)
		if err != nil {
			return nil, err
		}
		target = *r.FirstItemIndex
	default:
		err = m.Do(func(d *document.Document) error {
			var err error
			target, level, err = c.insertAnchor(d, in, after, target, level)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if target < 0 {
		return nil, c.refusal(in, "")
	}
	md := in.Text
	if in.Heading {
		if level == 0 {
			_ = m.Do(func(d *document.Document) error {
				if h := d.HeadingOf(target); h >= 0 {
					level = d.Item(h).Level
				}
				return nil
			})
		}
		md = strings.Repeat("#", max(level, 1)) + " " + strings.TrimLeft(md, "# ")
	}
	_ = m.Do(func(d *document.Document) error { where = d.Place(target); return nil })
	res, err := c.insertItem(ctx, after, target, md)
	if err != nil {
		return nil, err
	}
	what := say(in.Russian, "the paragraph", "абзац")
	if in.Heading {
		what = say(in.Russian, "the heading", "заголовок")
	}
	var answer string
	switch {
	case in.Russian && after:
		answer = fmt.Sprintf("Вставил %s «%s» после: %s.", what, in.Text, where)
	case in.Russian:
		answer = fmt.Sprintf("Вставил %s «%s» перед: %s.", what, in.Text, where)
	default:
		answer = fmt.Sprintf("Inserted %s %q %s %s.", what, in.Text, in.Where, where)
	}
	c.emit(Event{Event: "answer", Text: answer})
	return res, nil
}

// deleteItems deletes the first item with the phrase, or all of them in the
// scope (one revision).
func (c *CommandAgent) deleteItems(ctx context.Context, in Intent) (any, error) {
	if in.Semantic {
		return nil, c.refusal(in, "")
	}
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	r, err := call(ctx, c, manuscript.DeleteAllRef, manuscript.DeleteAllArgs{Query: in.Object, First: in.Which != "all",
		MatchOptions: manuscript.MatchOptions{Forms: in.Forms}, ItemRange: sp.itemRange()})
	if err != nil {
		if errors.Is(err, manuscript.ErrNoOccurrence) {
			return nil, nothing{c.notOccurs(in, sp)}
		}
		return nil, err
	}
	var answer string
	if r.Count == 1 {
		answer = say(in.Russian, fmt.Sprintf("Deleted the paragraph in %s that mentioned %q.", r.Items[0].Section, in.Object),
			fmt.Sprintf("Удалил абзац с «%s» — %s.", in.Object, r.Items[0].Section))
	} else {
		answer = say(in.Russian, fmt.Sprintf("Deleted %d paragraphs that mentioned %q, from %s to %s. One Undo brings them back.", r.Count, in.Object, r.Items[0].Section, r.Items[len(r.Items)-1].Section),
			fmt.Sprintf("Удалил %d %s с «%s», от «%s» до «%s». Одна отмена вернёт их.", r.Count, ruPlural(r.Count, "абзац", "абзаца", "абзацев"), in.Object, r.Items[0].Section, r.Items[len(r.Items)-1].Section))
	}
	c.emit(Event{Event: "answer", Text: answer})
	return r, nil
}

// summarise summarises a section, this chapter or the book: chapter by
// chapter, every chapter in it, through RunCursorAgent's AggregateSummary (the
// built-in engine's first sentences, or a model's notes).
func (c *CommandAgent) summarise(ctx context.Context, in Intent) (any, error) {
	sp, err := c.rangeOf(in.Scope, in.Russian)
	if err != nil {
		return nil, err
	}
	task := say(in.Russian, "Summarise the whole book, chapter by chapter", "Перескажи всю книгу по главам")
	if !sp.Whole {
		task = say(in.Russian, "Summarise "+sp.Where+", chapter by chapter", "Перескажи по главам: "+sp.Where)
	}
	args := CursorAgentOptions{Forward: true, MaxElements: 200, MaxBytes: 65536, IncludeContent: true,
		Mode: ModeSummary, TaskDescription: task, MaxSteps: maxSteps()}
	r, err := c.readBook(ctx, sp.limit(args))
	if err != nil {
		return nil, err
	}
	// A book longer than one run's steps (a small model's budget makes many
	// portions) is read on from where the run stopped, a few times.
	for k := 0; k < summaryRuns && r.StepLimit; k++ {
		next := args
		next.TaskID = r.TaskID
		m, err := c.readBook(ctx, next)
		if err != nil {
			return nil, err
		}
		m.Summary = strings.TrimSpace(r.Summary + "\n" + m.Summary)
		m.Steps += r.Steps
		m.Portions += r.Portions
		r = m
	}
	builtinModel := !llm.Understands(c.Runtime.LLM())
	if !r.Success && r.Summary == "" {
		if !builtinModel && !r.StepLimit {
			return nil, noSummary(in.Russian) // read to the end, no note written
		}
		return nil, fmt.Errorf("%s", r.Reason)
	}
	head := say(in.Russian, "Summary of the book, chapter by chapter", "Краткое содержание книги по главам")
	if !sp.Whole {
		head = say(in.Russian, "Summary of "+sp.Where+", chapter by chapter", "Кратко по главам: "+sp.Where)
	}
	if !llm.Understands(c.Runtime.LLM()) {
		head += say(in.Russian, " (extractive: the first sentence of each chapter)", " (первые предложения глав)")
	}
	text := head + ":\n" + r.Summary
	if len(r.Missing) > 0 {
		// Not a success: which chapters it covers, which it misses.
		e := incompleteSummary(in.Russian, text, r.Chapters, r.Missing)
		c.emit(Event{Event: "answer", Text: e.Error()})
		return r, e
	}
	if r.StepLimit {
		text += "\n" + say(in.Russian, fmt.Sprintf("(Cut at the step limit: it covers the book up to %s; say continue to go on.)", r.StoppedAt),
			fmt.Sprintf("(Прервано пределом шагов: пересказ доходит до места «%s»; скажите «продолжай».)", r.StoppedAt))
	}
	c.emit(Event{Event: "answer", Text: text})
	return r, nil
}

// summaryRuns is how many times a summary that reached the step limit is
// read on (each run at most MaxMaxSteps model turns).
const summaryRuns = 4

// refusal says, in the command's language, that the built-in engine cannot
// carry the command out, and offers the nearest command it does understand,
// made of the author's own words: one line, which a screen reader says whole
// (the list of every command is under the command field).
func (c *CommandAgent) refusal(in Intent, cmd string) error {
	ru := in.Russian
	near := nearest(in)
	if in.Semantic && in.Object != "" {
		if ru {
			return needsModel{fmt.Sprintf("нужен сервер модели: «%s» — это не имя и не фраза в кавычках, чтобы это найти, текст надо понимать. Ближайшая команда, которую я выполню сам: %s. Чтобы искать по смыслу, укажите сервер модели (Настройки или WAYMARK_MODEL_URL).", in.Object, near)}
		}
		return needsModel{fmt.Sprintf("needs a model server: %q is not a name or a quoted phrase, so finding it takes understanding. The nearest command I can carry out myself: %s. To search by meaning, set a model server (Settings, or WAYMARK_MODEL_URL).", in.Object, near)}
	}
	if cmd == "" {
		cmd = in.Object
	}
	if ru {
		return needsModel{fmt.Sprintf("Встроенный помощник не понимает команду «%s». Ближайшая команда: %s. Остальные — под полем команды; для другого нужен сервер модели (Настройки).", cmd, near)}
	}
	return needsModel{fmt.Sprintf("The built-in engine does not understand %q. The nearest command: %s. The others are listed under the command field; anything else needs a model server (Settings).", cmd, near)}
}

// nearest is the command closest to what was asked that the built-in engine
// carries out, with the author's words put in.
func nearest(in Intent) string {
	ru := in.Russian
	name := nearestName(in)
	sec := ""
	if in.Scope.Kind == ScopeSection {
		sec = in.Scope.section()
		if ru {
			sec = sectionWordsRU(in.Scope)
		}
	}
	switch {
	case in.Verb == VerbUndo:
		return say(ru, "undo the last change", "отмени последнюю правку")
	case in.Verb == VerbRedo:
		return say(ru, "redo", "верни отменённое")
	case in.Verb == VerbChapters && name != "":
		return say(ru, fmt.Sprintf("in which chapters is %s mentioned", name), fmt.Sprintf("в каких главах есть %s", name))
	case in.Verb == VerbCharacters:
		return say(ru, "who are the main characters", "кто главные герои")
	case in.Verb == VerbGoTo:
		return say(ru, "go to chapter 5 (a chapter by its number)", "перейди к главе 5 (главу — по номеру)")
	case in.Verb == VerbSpelling:
		return say(ru, "find the typos in chapter 2", "найди опечатки во второй главе")
	case in.Verb == "" && sec != "":
		return say(ru, "summarise "+sec, "перескажи "+sec)
	case in.Verb == VerbCollect && name != "":
		set := in.Set
		if set == "" {
			set = strings.ToLower(name)
		}
		return say(ru, fmt.Sprintf(`collect all mentions of %q into %q`, name, set), fmt.Sprintf("собери все упоминания «%s» в набор «%s»", name, set))
	case in.Verb == VerbCount && name != "":
		return say(ru, fmt.Sprintf(`count the mentions of %q`, name), fmt.Sprintf("посчитай упоминания «%s»", name))
	case in.Verb == VerbDelete && name != "":
		return say(ru, fmt.Sprintf(`delete the paragraph with %q`, name), fmt.Sprintf("удали абзац с «%s»", name))
	case name != "":
		return nearestFind(ru, in.Which, name)
	case sec != "":
		return say(ru, "summarise "+sec, "перескажи "+sec)
	}
	return say(ru, `find the first mention of "Natasha"`, "найди первое упоминание «Наташа»")
}

// insertAnchor is the item an insertion goes next to, and the level of the
// section it names: a section's heading (its last item when the text goes
// after it and is no heading), the section the cursor is in, the cursor's
// item; target and level as they were when the anchor names none.
func (c *CommandAgent) insertAnchor(d *document.Document, in Intent, after bool, target, level int) (int, int, error) {
	switch in.Anchor.Kind {
	case ScopeSection, ScopeAfter, ScopeFrom:
		h := FindScope(d, in.Anchor)
		if h < 0 {
			return target, level, c.noSection(d, in.Anchor, in.Russian)
		}
		target, level = h, d.Item(h).Level
		if after && !in.Heading {
			target = SectionEnd(d, h) - 1 // the section's last item
		}
	case ScopeThis:
		at, err := c.cursorItem(d, in.Russian)
		if err != nil {
			return target, level, err
		}
		h := enclosing(d, at, in.Anchor.Ref.Kind)
		if h < 0 {
			return target, level, fmt.Errorf("%s", say(in.Russian, "the cursor is before the first chapter", "курсор стоит до первой главы"))
		}
		target, level = h, d.Item(h).Level
		if after && !in.Heading {
			target = SectionEnd(d, h) - 1
		}
	case ScopeHere:
		at, err := c.cursorItem(d, in.Russian)
		if err != nil {
			return target, level, err
		}
		target = at
	}
	return target, level, nil
}

// nearestName is the name a refused command's nearest command uses: the
// command's first name, or the first name its description holds.
func nearestName(in Intent) string {
	name := ""
	if len(in.Names) > 0 {
		name = in.Names[0]
	}
	if in.Semantic {
		if ns, _ := namesAndWords(in.Object); len(ns) > 0 {
			name = ns[0]
		}
	}
	return name
}

// nearestFind is a search for the first (last, next) mention of name.
func nearestFind(ru bool, which, name string) string {
	w := say(ru, "first", "первое")
	switch which {
	case "last":
		w = say(ru, "last", "последнее")
	case "next":
		w = say(ru, "next", "следующее")
	}
	return say(ru, fmt.Sprintf(`find the %s mention of %q`, w, name), fmt.Sprintf("найди %s упоминание «%s»", w, name))
}

// Understood lists what the built-in engine understands, for the window's
// help: the verbs, with or without quotes, names in any case form, and the
// scopes.
const Understood = `find the first / next / last mention of X ("where does X first appear", "when is X first mentioned"); collect all mentions of X into SET; replace A with B (every one, or "the first"; in chapter N, part N, this chapter, the selection, from here; "with word forms"); insert "TEXT" or a heading before / after chapter N or the first mention of X; delete the paragraph(s) with X; summarise chapter / part N, this chapter or the book; count X; in which chapters is X; go to chapter N; who are the main characters; the typos in chapter N (listed, nothing changed); undo (the last change), redo; continue. In Russian the same: «где впервые появляется X», «собери все упоминания X в набор N», «замени A на B в главе 3 со всеми падежами», «вставь заголовок «Т» перед главой V», «удали все абзацы с X», «перескажи часть 1», «сколько раз упоминается X», «в каких главах есть X», «перейди к пятой главе», «кто главные герои», «найди опечатки во второй главе», «отмени последнее», «верни отменённое», «продолжай»`
