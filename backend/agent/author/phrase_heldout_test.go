package author

import "testing"

// heldOut are phrasings written down from how authors talk to an assistant
// BEFORE the command grammar (phrase.go) was written, and never used as its
// examples: they measure how well the grammar generalises. The figure the
// test logs is the one the docs report; it is not required to be all of them,
// but it must not fall below the floor.
//
// The expected action is Intent.String(): verb, which one, the object in
// quotes as written (a name in any case form: the matcher finds its other
// forms), then the scope and the constraints.
var heldOut = []struct{ say, want string }{
	// English.
	{"where does Pierre first appear", `find first "Pierre"`},
	{"when is Kutuzov first mentioned", `find first "Kutuzov"`},
	{"first time Natasha is mentioned, not counting headings", `find first "Natasha" -headings`},
	{"collect every paragraph where Natasha appears into a set called natasha", `collect "Natasha" into natasha`},
	{"insert a heading Interlude before chapter V", `insert heading "Interlude" before chapter 5`},
	{"Where's Dolokhov mentioned for the first time?", `find first "Dolokhov"`},
	{"show me the last time Anna Pavlovna appears", `find last "Anna Pavlovna"`},
	{"next mention of Pierre", `find next "Pierre"`},
	{"and the next one?", `find next`},
	{"find Denisov in chapter 4", `find first "Denisov" in chapter 4`},
	{"Replace Pierre with Peter in chapter 3", `replace all "Pierre" with "Peter" in chapter 3`},
	{"change every Marta to Martha", `replace all "Marta" with "Martha"`},
	{"replace only the first Marta with Martha", `replace first "Marta" with "Martha"`},
	{"rename Sonya to Sophie throughout the book", `replace all "Sonya" with "Sophie"`},
	{"delete the paragraph that mentions Marta", `delete first "Marta"`},
	{"remove all paragraphs mentioning Marta", `delete all "Marta"`},
	{"sum up part 2", `summarise part 2`},
	{"what happens in chapter three?", `summarise chapter 3`},
	{"give me a summary of the whole book", `summarise book`},
	{"summarize this chapter", `summarise this chapter`},
	{"how many times is Natasha mentioned?", `count "Natasha"`},
	{"how often does Kutuzov appear in part 3", `count "Kutuzov" in part 3`},
	{"put all the Dolokhov passages into a set named duel", `collect "Dolokhov" into duel`},
	{"gather every mention of Hélène into helene", `collect "Hélène" into helene`},
	{"add 'Three years passed.' after chapter II", `insert "Three years passed." after chapter 2`},
	{`put "Moscow, 1812" before the first mention of Borodino`, `insert "Moscow, 1812" before "Borodino"`},
	{"find the first mention of prince andrew, exactly as written", `find first "prince andrew" exact`},
	{"search for Bolkonski from here to the end", `find first "Bolkonski" from here`},
	{"look for Rostov in the selection", `find first "Rostov" in selection`},
	{"replace Natasha with Natalie from here to the end", `replace all "Natasha" with "Natalie" from here`},
	{"keep going", `continue`},
	{"count the paragraphs about Sonya in book one", `count "Sonya" in book 1`},
	// Russian.
	{"где впервые появляется Долохов", `find first "Долохов"`},
	{"когда впервые упоминается Кутузов", `find first "Кутузов"`},
	{"первое упоминание Сони, без заголовков", `find first "Сони" -headings`},
	{"найди, где Наташа появляется в первый раз", `find first "Наташа"`},
	{"покажи последнее упоминание Анны Павловны", `find last "Анны Павловны"`},
	{"а дальше?", `continue`},
	{"следующее упоминание Пьера", `find next "Пьера"`},
	{"найди Денисова в четвёртой главе", `find first "Денисова" in chapter 4`},
	{"замени «Пьер» на «Петр» только в главе III", `replace all "Пьер" with "Петр" in chapter 3`},
	{"замени Пьер на Петр в третьей главе со всеми падежами", `replace all "Пьер" with "Петр" in chapter 3 forms`},
	{"поменяй первое «Марта» на «Марфа»", `replace first "Марта" with "Марфа"`},
	{"исправь везде Марта на Марфа", `replace all "Марта" with "Марфа"`},
	{"удали абзац, где упоминается Марта", `delete first "Марта"`},
	{"удали все абзацы с Мартой", `delete all "Мартой"`},
	{"перескажи часть 1", `summarise part 1`},
	{"кратко перескажи вторую часть", `summarise part 2`},
	{"о чём третья глава?", `summarise chapter 3`},
	{"краткое содержание всей книги", `summarise book`},
	{"перескажи эту главу", `summarise this chapter`},
	{"сколько раз упоминается Наташа", `count "Наташа"`},
	{"посчитай упоминания Кутузова во второй части", `count "Кутузова" in part 2`},
	{"собери все абзацы с Наташей в набор наташа", `collect "Наташей" into наташа`},
	{"сложи все места, где есть Долохов, в набор «дуэль»", `collect "Долохов" into дуэль`},
	{"вставь заголовок «Интерлюдия» перед главой V", `insert heading "Интерлюдия" before chapter 5`},
	{"добавь «Прошло три года.» после главы II", `insert "Прошло три года." after chapter 2`},
	{"найди Болконского начиная с этого места", `find first "Болконского" from here`},
	{"ищи Ростова в выделенном", `find first "Ростова" in selection`},
	{"где в последний раз появляется Кутузов?", `find last "Кутузов"`},
	{"найди «Андрей» точно, без других форм", `find first "Андрей" exact`},
	{"продолжай", `continue`},
	{"в каком месте впервые встречается Элен?", `find first "Элен"`},
	{"собери упоминания Сони в набор соня, не считая заголовков", `collect "Сони" into соня -headings`},
}

// TestHeldOutPhrasings measures the grammar on phrasings it was not built
// from. The docs report the figures it logs.
func TestHeldOutPhrasings(t *testing.T) {
	t.Run("before", func(t *testing.T) { measureHeldOut(t, heldOut) })
	t.Run("after", func(t *testing.T) { measureHeldOut(t, heldOutAfter) })
}

func measureHeldOut(t *testing.T, heldOut []struct{ say, want string }) {
	pass, ru, ruPass := 0, 0, 0
	for _, c := range heldOut {
		got := ParseCommand(c.say).String()
		russian := hasCyrillic(c.say)
		if russian {
			ru++
		}
		if got == c.want {
			pass++
			if russian {
				ruPass++
			}
			continue
		}
		t.Logf("held out: %q → %s, want %s", c.say, got, c.want)
	}
	t.Logf("held-out phrasings understood: %d of %d (Russian %d of %d, English %d of %d)", pass, len(heldOut), ruPass, ru, pass-ruPass, len(heldOut)-ru)
	if floor := len(heldOut) * 9 / 10; pass < floor {
		t.Errorf("held-out phrasings understood: %d of %d, below the floor of %d", pass, len(heldOut), floor)
	}
}

// heldOutAfter is a second held-out set, written after the grammar and
// committed before it was first run on them, so that its first figure is a
// blind one (the first set was read while the lexicon was written). The
// figure of that first run is reported in the docs; the grammar was not
// tuned to these afterwards except for the general gaps it showed, which the
// test's comments name.
var heldOutAfter = []struct{ say, want string }{
	{"Find where Natasha first shows up", `find first "Natasha"`},
	{"Could you show me the first place Rostov is mentioned?", `find first "Rostov"`},
	{"find all mentions of Pierre and put them in a set called pierre", `collect "Pierre" into pierre`},
	{"What's the last chapter where Denisov appears?", `find last "Denisov"`},
	{"jump to the next Kutuzov", `find next "Kutuzov"`},
	{"swap Marta for Martha everywhere", `replace all "Marta" with "Martha"`},
	{"fix the spelling Bolkonsky to Bolkonski", `replace all "Bolkonsky" with "Bolkonski"`},
	{"in chapter 2, replace Anna with Anne", `replace all "Anna" with "Anne" in chapter 2`},
	{"Delete every paragraph that contains Marta", `delete all "Marta"`},
	{"get rid of the paragraph about Marta", `delete first "Marta"`},
	{"Insert the heading Epilogue after chapter 28", `insert heading "Epilogue" after chapter 28`},
	{"add a paragraph saying 'It rained.' before chapter 3", `insert "It rained." before chapter 3`},
	{"Summarise chapter 12 for me", `summarise chapter 12`},
	{"Can you give me a recap of part three?", `summarise part 3`},
	{"how many paragraphs mention Dolokhov?", `count "Dolokhov"`},
	{"count Natasha in chapter 5", `count "Natasha" in chapter 5`},
	{"first appearance of Bagration", `find first "Bagration"`},
	{"Show Anatole's first appearance", `find first "Anatole"`},
	{"find the next Pierre, please", `find next "Pierre"`},
	{"collect Sonya into sonya", `collect "Sonya" into sonya`},
	{"Найди, когда впервые появляется Анатоль", `find first "Анатоль"`},
	{"покажи, где первый раз упоминается Ростов", `find first "Ростов"`},
	{"найди все упоминания Пьера и сложи их в набор пьер", `collect "Пьера" into пьер`},
	{"в какой главе последний раз появляется Денисов?", `find last "Денисов"`},
	{"следующий Кутузов", `find next "Кутузов"`},
	{"замени везде Марту на Марфу", `replace all "Марту" with "Марфу"`},
	{"исправь опечатку Болконскй на Болконский", `replace all "Болконскй" with "Болконский"`},
	{"во второй главе замени «Анна» на «Аннушка»", `replace all "Анна" with "Аннушка" in chapter 2`},
	{"удали каждый абзац, в котором есть Марта", `delete all "Марта"`},
	{"убери абзац про Марту", `delete first "Марту"`},
	{"вставь заголовок «Эпилог» после главы 28", `insert heading "Эпилог" after chapter 28`},
	{"добавь абзац «Шёл дождь.» перед главой 3", `insert "Шёл дождь." before chapter 3`},
	{"перескажи мне двенадцатую главу", `summarise chapter 12`},
	{"дай краткое содержание третьей части", `summarise part 3`},
	{"в скольких абзацах упоминается Долохов?", `count "Долохов"`},
	{"посчитай Наташу в пятой главе", `count "Наташу" in chapter 5`},
	{"первое появление Багратиона", `find first "Багратиона"`},
	{"покажи первое появление Анатоля", `find first "Анатоля"`},
	{"найди следующего Пьера, пожалуйста", `find next "Пьера"`},
	{"собери Соню в набор соня", `collect "Соню" into соня`},
}
