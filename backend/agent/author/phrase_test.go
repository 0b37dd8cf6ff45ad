package author

import (
	"strings"
	"testing"
	"unicode"
)

// phrasings are the grammar's own examples: the command forms the tests of
// the command agent use, the constraints, nested scopes and descriptions that
// need a model. With the held-out sets (phrase_heldout_test.go) they make the
// phrasing table the docs report.
var phrasings = []struct{ say, want string }{
	// Find, English.
	{`find the first mention of "Natasha"`, `find first "Natasha"`},
	{"find the first mention of Dolokhov", `find first "Dolokhov"`},
	{"find the next one", `find next`},
	{`find the next mention of "Pierre"`, `find next "Pierre"`},
	{"find the first mention of the Rostovs", `find first "Rostovs"`},
	{"find the first mention of Prince Andrew excluding headings", `find first "Prince Andrew" -headings`},
	{"find the first mention of Natasha after chapter 10", `find first "Natasha" after chapter 10`},
	{"find the first mention of Pierre in chapter 3", `find first "Pierre" in chapter 3`},
	{"find the last mention of Natasha", `find last "Natasha"`},
	{`find the first mention of "Napoleon" in code`, `find first "Napoleon" code`},
	{`find the first mention of "Pierre" in a quote`, `find first "Pierre" quote`},
	{"find the first mention of Bolkonski exactly", `find first "Bolkonski" exact`},
	{"find the first mention of Pierre getting angry at someone", `find first ~"Pierre getting angry at someone"`},
	{"find the scene where Natasha sings", `find first ~"scene where Natasha sings"`},
	{"find the first scene where Pierre is angry (excluding headings)", `find first ~"scene where Pierre is angry" -headings`},
	{"find Kutuzov in chapter 3 of part 2", `find first "Kutuzov" in chapter 3 of part 2`},
	{"find Natasha from chapter 5 on", `find first "Natasha" from chapter 5`},
	{"where is Pierre mentioned in this chapter", `find first "Pierre" in this chapter`},
	{"Pierre's first appearance", `find first "Pierre"`},
	{"locate the earliest mention of Hélène", `find first "Hélène"`},
	{"find Natasha with all word forms", `find first "Natasha" forms`},
	{"search for the word Moscow in the selected text", `find first "Moscow" in selection`},
	{"find the next Pierre after the cursor", `find next "Pierre" from here`},
	{"where does Natasha appear for the last time?", `find last "Natasha"`},
	{"find Napoleon in the second part", `find first "Napoleon" in part 2`},
	// Find, Russian.
	{"найди первое упоминание Долохова", `find first "Долохова"`},
	{"найди следующее упоминание", `find next`},
	{"найди первое упоминание «Долохов» точно", `find first "Долохов" exact`},
	{"найди первое упоминание Наташи после главы 3", `find first "Наташи" after chapter 3`},
	{"найди первое упоминание Пьера в главе 5", `find first "Пьера" in chapter 5`},
	{"найди последнее упоминание Наташи", `find last "Наташи"`},
	{"найди первое упоминание князя Андрея", `find first "князя Андрея"`},
	{"найди первое упоминание «Пьер» в коде", `find first "Пьер" code`},
	{"найди первое упоминание, где Пьер сердится", `find first ~"где Пьер сердится"`},
	{"найди сцену, где Наташа поёт", `find first ~"сцену, где Наташа поёт"`},
	{"найди первую сцену, где Pierre сердится, исключая заголовки", `find first ~"сцену, где Pierre сердится" -headings`},
	{"найди Кутузова в третьей главе второй части", `find first "Кутузова" in chapter 3 of part 2`},
	{"найди Наташу начиная с главы 5", `find first "Наташу" from chapter 5`},
	{"где в этой главе упоминается Пьер", `find first "Пьер" in this chapter`},
	{"найди Наташу во всех формах", `find first "Наташу" forms`},
	{"найди «Москва» в цитатах", `find first "Москва" quote`},
	{"найди Ростова в выделенном фрагменте", `find first "Ростова" in selection`},
	{"где Наташа появляется в последний раз?", `find last "Наташа"`},
	{"найди ещё одно упоминание Пьера", `find next "Пьера"`},
	{"найди Пьера отсюда и до конца", `find first "Пьера" from here`},
	{"найди Наполеона во второй части", `find first "Наполеона" in part 2`},
	// Collect.
	{`collect all paragraphs mentioning "Natasha" into set natasha`, `collect "Natasha" into natasha`},
	{`gather the scenes with "Denisov" into "denisov"`, `collect "Denisov" into denisov`},
	{`put all mentions of "Kutuzov" into set kutuzov`, `collect "Kutuzov" into kutuzov`},
	{"collect every mention of Pierre in part 1 into pierre-one", `collect "Pierre" into pierre-one in part 1`},
	{"add all paragraphs with Sonya to a set called sonya", `collect "Sonya" into sonya`},
	{"собери все абзацы с «Денисов» в набор денисов", `collect "Денисов" into денисов`},
	{"сложи все упоминания «Тушин» в «тушин»", `collect "Тушин" into тушин`},
	{"собери упоминания Пьера в первой части в набор пьер", `collect "Пьера" into пьер in part 1`},
	{"добавь все места с Соней в новый набор соня", `collect "Соней" into соня`},
	{"помести все абзацы про Кутузова в коллекцию кутузов", `collect "Кутузова" into кутузов`},
	// Replace.
	{`replace "Pierre" with "Peter" in chapter 3`, `replace all "Pierre" with "Peter" in chapter 3`},
	{`replace "Marta" with "Martha"`, `replace all "Marta" with "Martha"`},
	{`replace the first "Marta" with "Martha"`, `replace first "Marta" with "Martha"`},
	{`replace all "Marta" with "Martha"`, `replace all "Marta" with "Martha"`},
	{`replace "Pierre" with "Peter" in this chapter`, `replace all "Pierre" with "Peter" in this chapter`},
	{"replace Pierre with Peter in the selection", `replace all "Pierre" with "Peter" in selection`},
	{"change Natasha to Natalie in part 2, with word forms", `replace all "Natasha" with "Natalie" in part 2 forms`},
	{"replace Marta by Martha exactly", `replace all "Marta" with "Martha" exact`},
	{"замени «Пьер» на «Петр»", `replace all "Пьер" with "Петр"`},
	{"замени «Долохов» на «Курагин»", `replace all "Долохов" with "Курагин"`},
	{"замени только первое «Марта» на «Марфа»", `replace first "Марта" with "Марфа"`},
	{"замени Пьер на Петр во всех падежах в части 1", `replace all "Пьер" with "Петр" in part 1 forms`},
	{"замени «Пьер» на «Петр» в этой главе", `replace all "Пьер" with "Петр" in this chapter`},
	{"поменяй Наташа на Наталья в выделенном", `replace all "Наташа" with "Наталья" in selection`},
	{"переименуй Соню в Софью с учётом падежей", `replace all "Соню" with "Софью" forms`},
	{"замени «Пьер» на «Петр» отсюда до конца", `replace all "Пьер" with "Петр" from here`},
	// Insert.
	{`insert "A new line." after "Natasha"`, `insert "A new line." after "Natasha"`},
	{`insert "Interlude" before chapter 5`, `insert "Interlude" before chapter 5`},
	{"insert the heading Intermezzo after chapter 2 of part 1", `insert heading "Intermezzo" after chapter 2 of part 1`},
	{`add "The end." after this chapter`, `insert "The end." after this chapter`},
	{"вставь «Новая строка.» после «Наташа»", `insert "Новая строка." after "Наташа"`},
	{"вставь заголовок Интермеццо после второй главы", `insert heading "Интермеццо" after chapter 2`},
	{"допиши «Конец.» после этой главы", `insert "Конец." after this chapter`},
	{"вставь «Москва, 1812» перед первым упоминанием Бородина", `insert "Москва, 1812" before "Бородина"`},
	// Delete.
	{`delete the paragraph with "Marta"`, `delete first "Marta"`},
	{`delete all paragraphs with "Marta" in chapter 2`, `delete all "Marta" in chapter 2`},
	{"remove the first paragraph mentioning Marta", `delete first "Marta"`},
	{"удали абзац с «Марта»", `delete first "Марта"`},
	{"удали все абзацы про Марту в этой главе", `delete all "Марту" in this chapter`},
	{"вычеркни первый абзац, где упоминается Марта", `delete first "Марта"`},
	// Summarise.
	{"summarise chapter 6", `summarise chapter 6`},
	{"summarize chapter VI", `summarise chapter 6`},
	{"summarise the sixth chapter", `summarise chapter 6`},
	{"summarise chapter six", `summarise chapter 6`},
	{"summarize part 1", `summarise part 1`},
	{"summarise the whole book", `summarise book`},
	{"summarise book two", `summarise book 2`},
	{"summarise chapter 3 of part 2", `summarise chapter 3 of part 2`},
	{"перескажи главу 6", `summarise chapter 6`},
	{"перескажи главу VI", `summarise chapter 6`},
	{"перескажи шестую главу", `summarise chapter 6`},
	{"перескажи часть вторую", `summarise part 2`},
	{"перескажи всю книгу", `summarise book`},
	{"перескажи том 2", `summarise book 2`},
	{"перескажи третью главу второй части", `summarise chapter 3 of part 2`},
	{"что происходит в пятой главе?", `summarise chapter 5`},
	// Count.
	{`count the mentions of "Natasha"`, `count "Natasha"`},
	{"count Pierre in this chapter", `count "Pierre" in this chapter`},
	{"how many paragraphs mention Kutuzov in book one?", `count "Kutuzov" in book 1`},
	{"сколько раз встречается «Москва»", `count "Москва"`},
	{"посчитай абзацы с Соней в этой главе", `count "Соней" in this chapter`},
	{"сколько абзацев про Кутузова в первом томе?", `count "Кутузова" in book 1`},
	// Continue.
	{"continue", `continue`},
	{"go on", `continue`},
	{"продолжи", `continue`},
	{"дальше", `continue`},
	{"continue searching for Pierre", `find next "Pierre"`},
	// Not understood: a refusal offers the nearest command.
	{"translate chapter 3 into French", `?`},
	{"переведи главу 3 на французский", `?`},
}

// TestPhrasingTable is the grammar's table: its own examples and the held-out
// sets, at least 150 phrasings, about half of them Russian.
func TestPhrasingTable(t *testing.T) {
	all := append(append(append([]struct{ say, want string }{}, phrasings...), heldOut...), heldOutAfter...)
	ru, pass := 0, 0
	for _, c := range all {
		if hasCyrillic(c.say) {
			ru++
		}
		got := ParseCommand(c.say).String()
		if got != c.want {
			t.Errorf("%q\n got %s\nwant %s", c.say, got, c.want)
			continue
		}
		pass++
	}
	t.Logf("phrasing table: %d of %d phrasings give the expected action (%d Russian)", pass, len(all), ru)
	if len(all) < 150 || ru*10 < len(all)*4 {
		t.Errorf("the table has %d phrasings, %d Russian; it needs at least 150, about half Russian", len(all), ru)
	}
}

// TestParseIssue31 reads the commands issue 31 found refused or misread:
// undo and redo in the author's words (before: «отмени последнее» was a
// backwards find for «отм…», "undo that" not understood), go to, the
// chapters of a name, the characters, the typos, «где впервые назван». A
// command that names more than the last change ("undo the change in
// chapter 3", "the first", "the last 3") is not understood: refused, never
// carried out by guess; so is "go to the next chapter" (before: "the next
// mention" of the last search).
func TestParseIssue31(t *testing.T) {
	for _, c := range []struct {
		say, want  string
		understood bool
	}{
		{"undo that", "undo", true},
		{"undo the last change", "undo", true},
		{"revert", "undo", true},
		{"take it back", "undo", true},
		{"undo the replacement", "undo replace", true},
		{"redo", "redo", true},
		{"отмени", "undo", true},
		{"отмени последнее", "undo", true},
		{"верни как было", "undo", true},
		{"верни обратно", "undo", true},
		{"отмени замену", "undo replace", true},
		{"отмени удаление", "undo delete", true},
		{"повтори отменённое", "redo", true},
		{"верни отменённое", "redo", true},
		{"undo the change in chapter 3", "undo in chapter 3", false},
		{"undo the last 3 changes", `undo "3"`, false},
		{"undo the first change", "undo", false},
		{"отмени первую правку", "undo", false},
		{"go to chapter 5", "goto chapter 5", true},
		{"перейди к пятой главе", "goto chapter 5", true},
		{"open chapter 3 of part 2", "goto chapter 3 of part 2", true},
		{"go to the next chapter", "goto", false},
		{"list every chapter where Helene appears", `chapters "Helene"`, true},
		{"in which chapters does Natasha appear?", `chapters "Natasha"`, true},
		{"в каких главах есть Элен?", `chapters "Элен"`, true},
		{"who are the main characters?", "characters", true},
		{"кто главные герои?", "characters", true},
		{"fix the typos in chapter 2", "spelling in chapter 2", true},
		{"исправь опечатки во второй главе", "spelling in chapter 2", true},
		{"fix typo 'teh' to 'the'", `replace all "teh" with "the"`, true},
		{"find the scene where the heroes argue", `find first ~"heroes argue"`, true},
		{"найди, где впервые назван Кутузов", `find first "Кутузов"`, true},
		{"следующее упоминание Наташи", `find next "Наташи"`, true},
		{"show me another mention of Dolokhov", `find next "Dolokhov"`, true},
	} {
		in := ParseCommand(c.say)
		if got := in.String(); got != c.want || in.Understood() != c.understood {
			t.Errorf("%q\n got %s (understood %v)\nwant %s (understood %v)", c.say, got, in.Understood(), c.want, c.understood)
		}
	}
}

// TestParseCommandLanguageAndNames: the answer's language follows the
// command's own words, and a refusal can use the names it holds.
func TestParseCommandLanguageAndNames(t *testing.T) {
	for _, c := range []struct {
		say     string
		russian bool
		names   string
	}{
		{`find "Наташа"`, false, "Наташа"},
		{`найди "Pierre"`, true, "Pierre"},
		{`«Наташа»`, true, "Наташа"},
		{"translate the chapter about Pierre Bezukhov", false, "Pierre Bezukhov"},
		{"переведи главу про Пьера", true, "Пьера"},
	} {
		in := ParseCommand(c.say)
		if in.Russian != c.russian || strings.Join(in.Names, " ") != c.names {
			t.Errorf("%q: russian %v names %q, want %v %q", c.say, in.Russian, in.Names, c.russian, c.names)
		}
	}
}

// hasCyrillic reports whether s has a Cyrillic letter (a Russian case).
func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}
