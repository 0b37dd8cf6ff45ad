package author

import "strings"

// The lexicon of the command grammar (phrase.go): each word class once, in
// English and Russian. Within an element, longer alternatives come first (the
// first alternative that matches is taken).

// verbRule is a verb phrase. notAfterArticle: the word is also a noun ("the
// count", "the change") and is not a verb after an article.
type verbRule struct {
	p               phrasePattern
	verb            string
	notAfterArticle bool
	rename          bool // a name renamed: every word form (Intent.Rename)
}

var verbRules = []verbRule{
	{p: pat("redo|re-do|redo_that|повтори_отмененн*|верни_отмененн*|восстанови_отмененн*|повтори_последн*_отмененн*|верни_последн*_отмененн*|повтори_отмену|отмени_отмену|undo_the_undo"), verb: VerbRedo},
	{p: pat("undo|revert|roll_back|rollback|take_it_back|take_that_back|take_back|cancel_the_last|cancel_my_last|отмени|отменить|отмените|откати|откатить|верни_все_как_было|верни_как_было|верни_обратно|верни_назад|вернуть_как_было|верни_прежний_текст|верни_прежнее"), verb: VerbUndo},
	{p: pat("how_many_times|how_many|how_often|how_much|number_of|сколько_раз|скольк*|посчитай|подсчитай|сосчитай|посчитать|подсчитать|количество|число"), verb: VerbCount},
	{p: pat("count|tally"), verb: VerbCount, notAfterArticle: true},
	{p: pat("what_is_happening|what_happens|what_happened|what's_happening|what_goes_on|what_went_on|what_is_it_about|what's_it_about|sum_up|summarise|summarize|summarising|summarizing|summary|recap|retell|synopsis|gist|о_чем|что_происходит|что_произошло|что_случилось|что_было|краткое_содержание|кратко|перескаж*|пересказ*|резюмир*|резюме|изложи|суммируй|содержание")},
	{p: pat("jump_to|go_to|take_me_to|move_to|skip_to|open|перейди_к|перейди_ко|перейди_на|перейди|перейти_к|перейти_ко|открой|find|locate|search_for|search|look_for|look_up|seek|show_me|show|where's|where_is|where_does|where_do|where_did|where_was|where|when's|when_is|when_does|when_did|when_was|when|which_chapter|what_chapter|what's|what_is|which|в_каком_месте|в_какой_главе|в_какой_части|на_какой_странице|найд*|найти|поищ*|ищи|ищите|искать|отыщ*|покаж*|показать|где|когда"), verb: VerbFind},
	{p: pat("collect|gather|group|собери|соберите|собрать|сложи|сгруппируй"), verb: VerbCollect},
	{p: pat("add|put|save|place|store|помести|сохрани|добавь|добавьте|добавить|положи|занеси"), verb: "put"},
	{p: pat("rename|переименуй|переименуйте|переименовать"), verb: VerbReplace, rename: true},
	{p: pat("replace|substitute|swap|correct|switch|fix|замени|заменить|замените|поменяй|поменять|измени|изменить|исправь|исправить"), verb: VerbReplace},
	{p: pat("change"), verb: VerbReplace, notAfterArticle: true},
	{p: pat("insert|write|вставь|вставить|вставьте|допиши|впиши|поставь"), verb: VerbInsert},
	{p: pat("delete|remove|erase|cut|drop|strike_out|strike|get_rid_of|удали|удалить|удалите|убери|убрать|вычеркни|сотри"), verb: VerbDelete},
	{p: pat("continue|keep_going|keep_looking|go_on|carry_on|resume|продолжай|продолжи|продолжить|продолжайте|давай_дальше|дальше|далее|еще"), verb: VerbContinue},
}

func init() {
	for k := range verbRules {
		if verbRules[k].verb == "" {
			verbRules[k].verb = VerbSummarise
		}
	}
}

// constraintRules: headings excluded, exact words, word forms, code, quotes.
var constraintRules = []rule{
	{pat("not_counting|excluding|except_for|except|without|ignoring|ignore|but_not_in|but_not|not_in|outside_of|outside|skipping|skip|no the|any? heading|headings|title|titles|header|headers|chapter_titles"),
		func(in *Intent, _ []tok, _ []int) { in.ExcludeHeadings = true }},
	{pat("без|не_считая|кроме|исключая|не_в|вне|пропуская заголов*"),
		func(in *Intent, _ []tok, _ []int) { in.ExcludeHeadings = true }},
	{pat("exactly_as_written|exactly_as_typed|exactly|exact_form|exact_words|exact|verbatim|as_written|as_typed|only_this_form|without_other_forms|without_word_forms|without_forms|no_other_forms|no_word_forms|точно_так|точно|в_точности|дословно|именно_так|без_других_форм|без_форм|без_падежей|только_эту_форму|только_в_этой_форме"),
		func(in *Intent, _ []tok, _ []int) { in.Exact = true }},
	{pat("with|including|in|and|plus all|any|every|its|their|his|her|the? word? forms|form|inflections|inflected_forms|cases|declensions"),
		func(in *Intent, _ []tok, _ []int) { in.Forms = true }},
	{pat("all_word_forms|all_forms|any_form|every_form|word_forms|inflected"),
		func(in *Intent, _ []tok, _ []int) { in.Forms = true }},
	{pat("со|с|во|в|включая|с_учетом|и|учитывая всеми|всех|всем|любой|любых|любыми|его|ее|их|другими|разными? падеж*|форм*|склонени*"),
		func(in *Intent, _ []tok, _ []int) { in.Forms = true }},
	{pat("in|inside|within a|the? code_blocks|code_block|code"),
		func(in *Intent, _ []tok, _ []int) { in.Only = "code" }},
	{pat("в|внутри блоке|блоках? код*"),
		func(in *Intent, _ []tok, _ []int) { in.Only = "code" }},
	{pat("in|inside|within a|the? block? quotes|quote|quotations|quotation|blockquotes|blockquote"),
		func(in *Intent, _ []tok, _ []int) { in.Only = "quote" }},
	{pat("в|внутри цитат*"),
		func(in *Intent, _ []tok, _ []int) { in.Only = "quote" }},
}

// placeRules: scopes that are not numbered sections.
var placeRules = []rule{
	{pat("in|within|inside|throughout|across|for|of|through? this|the_current|current|the_present #kind"),
		func(in *Intent, ts []tok, c []int) {
			in.Scope = Scope{Kind: ScopeThis, Ref: SectionRef{Kind: sectionKindOf(ts[c[0]].low)}}
		}},
	{pat("в|во|по|для|из|на? эту|этой|этот|эта|этом|этого|текущей|текущую|текущая|текущем|данной|данную|нынешней|этой_же #kind"),
		func(in *Intent, ts []tok, c []int) {
			in.Scope = Scope{Kind: ScopeThis, Ref: SectionRef{Kind: sectionKindOf(ts[c[0]].low)}}
		}},
	{pat("in|within|inside|throughout|across|from? the|my|this|what? selection|selected_text|selected_passage|selected_part|selected_paragraphs|highlighted_text|highlighted_passage|selected|highlighted|i_selected|i_highlighted|i've_selected"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeSelection} }},
	{pat("в|во|по|из? выделенном_тексте|выделенном_фрагменте|выделенном_месте|выделенной_части|выделенных_абзацах|выделенный_текст|выделенный_фрагмент|выделенное|выделенном|выделении|выделенному|выделение"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeSelection} }},
	{pat("from|starting_from|starting_at here|this_point|this_place|this_paragraph|the_cursor|the_caret|where_i_am to_the_end|till_the_end|until_the_end|on|onwards|onward|forward|down?"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeHere} }},
	{pat("after|below|past the_cursor|the_caret|this_point|this_paragraph"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeHere} }},
	{pat("начиная_с_этого_места|начиная_отсюда|с_этого_места|от_этого_места|отсюда|от_курсора|с_курсора|после_курсора|дальше_по_тексту и? до_конца_книги|до_конца|дальше?"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeHere} }},
	{pat("everywhere|throughout_the_whole_book|throughout_the_book|throughout_the_novel|throughout_the_text|throughout_the_manuscript|throughout|in_the_whole_book|in_the_entire_book|in_the_whole_novel|in_the_whole_text|all_over_the_book|all_through_the_book|across_the_book|in_the_book|in_the_novel|the_whole_book|the_entire_book|the_whole_novel|the_whole_manuscript|the_entire_novel|whole_book|entire_book"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeBook} }},
	{pat("везде|всюду|повсюду|по_всей_книге|во_всей_книге|по_всему_тексту|во_всем_тексте|по_всему_роману|во_всем_романе|по_всей_рукописи|в_книге|в_романе|всей_книги|всю_книгу|всего_романа|весь_роман|всей_рукописи|всю_рукопись|книгу_целиком|роман_целиком|целиком"),
		func(in *Intent, _ []tok, _ []int) { in.Scope = Scope{Kind: ScopeBook} }},
}

// sectionRules: numbered sections, in English and Russian word order, with
// the preposition that says in, after or from.
var sectionRules = []rule{
	{pat("after the? #kind #num"), sectionAt(ScopeAfter, 0, 1)},
	{pat("after the? #ord #kind"), sectionAt(ScopeAfter, 1, 0)},
	{pat("from|starting_from|starting_at|starting_with|beginning_with|beginning_at|beginning_from the? #kind #num on|onwards|onward?"), sectionAt(ScopeFrom, 0, 1)},
	{pat("from|starting_from|starting_at|starting_with|beginning_with the? #ord #kind on|onwards|onward?"), sectionAt(ScopeFrom, 1, 0)},
	{pat("only|just? in|within|inside|throughout|of|from_within|for? the? #kind #num"), sectionAt(ScopeSection, 0, 1)},
	{pat("only|just? in|within|inside|throughout|of|for? the? #ord #kind"), sectionAt(ScopeSection, 1, 0)},
	{pat("после #kind #num"), sectionAt(ScopeAfter, 0, 1)},
	{pat("после #ord #kind"), sectionAt(ScopeAfter, 1, 0)},
	{pat("начиная_с|начиная_со|с|со #kind #num"), sectionAt(ScopeFrom, 0, 1)},
	{pat("начиная_с|начиная_со|с|со #ord #kind"), sectionAt(ScopeFrom, 1, 0)},
	{pat("только|лишь? в|во|из|по|для? #kind #num"), sectionAt(ScopeSection, 0, 1)},
	{pat("только|лишь? в|во|из|по|для? #ord #kind"), sectionAt(ScopeSection, 1, 0)},
}

// sectionAt makes a section scope from the kind and number slots; a second
// section of a larger kind is where the first one is ("chapter 3 of part 2").
func sectionAt(kind string, k, n int) func(in *Intent, ts []tok, c []int) {
	return func(in *Intent, ts []tok, c []int) {
		ref, ok := sectionRef(ts[c[k]].low, ts[c[n]].low)
		if !ok {
			return
		}
		s := &in.Scope
		switch {
		case s.Kind == ScopeSection || s.Kind == ScopeAfter || s.Kind == ScopeFrom:
			if rank[ref.Kind] > rank[s.Ref.Kind] {
				s.Within = &ref
			} else if rank[ref.Kind] < rank[s.Ref.Kind] {
				outer := s.Ref
				s.Ref, s.Within = ref, &outer
			}
		default:
			*s = Scope{Kind: kind, Ref: ref}
		}
	}
}

var rank = map[string]int{"chapter": 1, "part": 2, "book": 3}

// whichRules: first, next, last, all.
var whichRules = []rule{
	{pat("for_the_very_first_time|for_the_first_time|the_very_first_time|the_first_time|first_time|only_the_very_first|only_the_first|just_the_first|only_first|the_very_first|very_first|the_first_one|first_one|first|earliest|впервые|в_самый_первый_раз|в_первый_раз|первый_раз|только_самое_первое|самое_первое|самый_первый|самую_первую|только_первое|только_первый|только_первую|только_первого|первое|первый|первую|первая|первой|первом|первого|первым"),
		func(in *Intent, _ []tok, _ []int) { in.Which = "first" }},
	{pat("the_next_one|next_one|the_next|next|following|again|another_one|another|once_more|one_more|следующ*|еще_раз|еще_одно|еще_одного|еще|снова|опять"),
		func(in *Intent, _ []tok, _ []int) { in.Which = "next" }},
	{pat("for_the_very_last_time|for_the_last_time|the_very_last_time|the_last_time|last_time|the_very_last|very_last|the_last_one|last_one|last|latest|final|в_последний_раз|последний_раз|самое_последнее|последн*"),
		func(in *Intent, _ []tok, _ []int) { in.Which = "last" }},
	{pat("all_occurrences_of|all_instances_of|every_occurrence_of|each_occurrence_of|all_of_the|all_the|all|every|each|все|всех|каждое|каждый|каждую|каждого|каждом"),
		func(in *Intent, _ []tok, _ []int) { in.Which = "all" }},
}

// insertNouns: what kind of text an insert adds.
var insertNouns = []rule{
	{pat("a|an|the|new? heading|title|header|заголовок|заглавие|подзаголовок"), func(in *Intent, _ []tok, _ []int) { in.Heading = true }},
	{pat("a|an|the|new? paragraph|line|sentence|text|note|words|phrase|абзац|строку|строчку|фразу|текст|предложение|слова|примечание"), func(*Intent, []tok, []int) {}},
}

// anchorFillers: the words of an insert's anchor around its phrase ("the
// first mention of", «упоминанием»).
var anchorFillers = []rule{
	{pat("the? first|very_first? mention|occurrence|appearance of"), func(*Intent, []tok, []int) {}},
	{pat("the? paragraph|line|sentence that|which? mentions|contains|has|with|containing|mentioning|about"), func(*Intent, []tok, []int) {}},
	{pat("первым|первого|первой? упоминанием|упоминания|появлением|появления|вхождением|вхождения"), func(*Intent, []tok, []int) {}},
	{pat("абзацем|абзаца|строкой|строки|предложением|предложения с|где|про|о|со|об? упоминанием?"), func(*Intent, []tok, []int) {}},
}

var insertWhere = map[string]string{"before": "before", "after": "after", "перед": "before", "после": "after", "до": "before", "ahead": "before"}

// Collect's set: the preposition, the set nouns and "called".
var (
	setPrep  = map[string]bool{"into": true, "in": true, "to": true, "в": true, "во": true}
	setNouns = map[string]bool{"set": true, "sets": true, "collection": true, "group": true, "list": true, "targetset": true, "target-set": true,
		"набор": true, "набора": true, "коллекцию": true, "коллекция": true, "подборку": true, "подборка": true, "список": true, "группу": true}
	setNamed = map[string]bool{"called": true, "named": true, "titled": true, "под": true, "названием": true, "именем": true, "с": true, "называемый": true, "названный": true, "под_названием": true}
)

// replaceWith: the connector between replace's old and new text.
var replaceWith = map[string]bool{"with": true, "by": true, "to": true, "for": true, "into": true, "as": true, "на": true, "в": true}

var articles = map[string]bool{"the": true, "a": true, "an": true}

// wordSet holds words and word prefixes ("упоминани*").
type wordSet struct {
	words    map[string]bool
	prefixes []string
}

func newWordSet(s string) wordSet {
	ws := wordSet{words: map[string]bool{}}
	for _, w := range strings.Fields(s) {
		if p, ok := strings.CutSuffix(w, "*"); ok {
			ws.prefixes = append(ws.prefixes, p)
		} else {
			ws.words[w] = true
		}
	}
	return ws
}

func (ws wordSet) match(w string) bool {
	if ws.words[w] {
		return true
	}
	for _, p := range ws.prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// mentionNouns make a verbless command a search ("first mention of X").
var mentionNouns = newWordSet("mention mentions occurrence occurrences appearance appearances reference references упоминани* появлени* вхождени*")

// leadSkip are the words a description that needs a model does not start
// with ("the first mention, where …" → "where …").
var leadSkip = newWordSet("the a an me us of please mention mentions occurrence occurrences appearance appearances упоминание упоминания первое первую пожалуйста мне")

// fillers are the words around an object that are not part of it: articles,
// "every paragraph where … appears", «все места, где есть …».
var fillers = newWordSet(`the a an me us of to about all every each any some this that these those
	paragraph paragraphs passage passages place places scene scenes line lines item items bit bits part parts
	mention mentions mentioned mentioning occurrence occurrences occurs occur reference references referenced
	appearance appearances appear appears appeared appearing show shows showed shown up turn turns turned
	time times is was are were be been does did do where which that who whom whose it its on at with
	containing contains contain and also please can could would you i i'd like want let's let now ok okay so
	just only one ones he she they his her their them there named called character person word name
	chapter spelling typo misspelling searching looking for опечатк* написание назван* назвал* называ*
	все всех каждое каждый каждую абзац* мест* фрагмент* отрывк* сцен* эпизод* упомина* упомянут* появля*
	появил* появлени* встреча* есть где с со о об про в во на котор* когда раз и а ну же ли именно мне меня
	пожалуйста можешь можно это этот эта там тут он она они его ее их персонаж* имя слово герой героя`)

func fillerWord(w string) bool { return fillers.match(w) }

// descriptive fillers make a passage of what is left: a lone lower-case word
// after "the scene at …" is a description, not a name.
var descriptive = newWordSet("scene scenes place places passage passages moment where when at on with about that which сцен* эпизод* мест* момент где когда с со про о об котор*")

// sectionKinds: the section words in every case form.
var sectionKinds = func() map[string]string {
	m := map[string]string{}
	add := func(kind, words string) {
		for _, w := range strings.Fields(words) {
			m[w] = kind
		}
	}
	add("chapter", "chapter chapters глава главы главе главу главой главою глав главам главах главами")
	add("part", "part parts часть части частью частей частям частях частями")
	add("book", "book books volume volumes том тома тому томом томе томов томах книга книги книге книгу книгой книг")
	return m
}()

// Undo and redo: the words that may stand around the verb ("undo the last
// change", «отмени последнюю правку»), and the kinds of edit a command may
// name («отмени замену»), which must be the kind of the last edit.
var undoFillers = newWordSet(`change changes edit edits action step it that this my the last previous latest recent one what i did done made
	please can could you now just again
	правк* изменени* действи* шаг это последн* предыдущ* недавн* мою мое мои мой то что я сделал* сделано как было обратно назад пожалуйста еще`)

var undoKinds = map[string]string{
	"replacement": VerbReplace, "replace": VerbReplace, "rename": VerbReplace, "renaming": VerbReplace, "substitution": VerbReplace,
	"deletion": VerbDelete, "delete": VerbDelete, "removal": VerbDelete,
	"insertion": VerbInsert, "insert": VerbInsert, "addition": VerbInsert,
	"замену": VerbReplace, "замена": VerbReplace, "переименование": VerbReplace,
	"удаление": VerbDelete, "вставку": VerbInsert, "вставка": VerbInsert, "добавление": VerbInsert,
}

// nounRules mark a command by the noun it is about, wherever it stands:
// the chapters that mention X, the people of the book, its misspellings.
// The verb found beside them ("show", "list", "fix") says no more.
var nounRules = []rule{
	{pat("in_which_chapters|in_what_chapters|which_chapters|what_chapters|in_which_parts|which_parts|list_every_chapter|list_each_chapter|list_all_the_chapters|list_all_chapters|list_the_chapters|list_chapters|every_chapter|each_chapter|all_the_chapters|all_chapters|the_chapters|chapters"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbChapters }},
	{pat("в_каких_главах|в_каких_частях|каких_главах|во_всех_главах|в_которых_главах|какие_главы|перечисли_все_главы|перечисли_главы|назови_главы|список_глав|все_главы"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbChapters }},
	{pat("the? main|principal|major|leading|central|all_the|all? characters|heroes|protagonists|dramatis_personae|cast_of_characters|character_list|list_of_characters|character_index"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbCharacters }},
	{pat("главные|главных|основные|основных|центральные|все|всех|список|перечень|указатель? герои|героев|персонажи|персонажей|действующие_лица|действующих_лиц"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbCharacters }},
	{pat("spelling_mistakes|spelling_errors|misspelled_words|misspelt_words|misspellings|misspelling|typos|typo|spellcheck|spell-check|spell_check|the_spelling|spelling"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbSpelling }},
	{pat("орфографические_ошибки|орфографических_ошибок|ошибки_в_словах|ошибки_правописания|опечатк*|орфографи*|правописани*"),
		func(in *Intent, _ []tok, _ []int) { in.Kind = VerbSpelling }},
}
