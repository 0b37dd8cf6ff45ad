package author

import (
	"strings"
	"testing"
)

// TestAnswersQuoteOnceAndNameTheName: a sentence that opens or closes with
// its own quotation marks is not wrapped in a second pair (it was:
// ““I bet on Dólokhov!” cried a third.”); one without them is; a collect
// names the name sought («Долохов»), not the case form typed («Долоховым»),
// unless the exact words were asked for.
func TestAnswersQuoteOnceAndNameTheName(t *testing.T) {
	const book = "# Book\n\n## One\n\n“I bet on Dólokhov!” cried a third.\n\nDolokhov said nothing.\n\n## Два\n\nДолохов молчал. С Долоховым спорили.\n\n«Я за Долохова!» — кричал Ростов. Князь Андрей молчал.\n"
	for _, c := range []struct{ cmd, has, hasNot string }{
		{`find the first mention of "Dolokhov"`, "One: “I bet on Dólokhov!” cried a third.", "““"},
		{`find the first mention of "said nothing"`, "One: “Dolokhov said nothing.”", ""},
		{"найди первое упоминание «кричал Ростов»", "Два: «Я за Долохова!» — кричал Ростов.", "««"},
		{"собери все упоминания Долоховым в набор д", "собрано 2 места с упоминанием «Долохов»", "«Долоховым»"},
		{"собери все упоминания «Долоховым» в набор д точно", "с упоминанием «Долоховым»", ""},
		{"собери все упоминания князя Андрея в набор а", "с упоминанием «князь Андрей»", ""},
		{"сколько раз упоминается Долоховым", "«Долохов» (во всех формах) встречается 3 раза в 2 абзацах", "«Долоховым»"},
	} {
		e := newEnv(t, book, nil)
		answer, _ := runOne(t, e, &CommandAgent{}, c.cmd)
		if c.has != "" && !strings.Contains(answer, c.has) || c.hasNot != "" && strings.Contains(answer, c.hasNot) {
			t.Errorf("%s: %q, want %q and not %q", c.cmd, answer, c.has, c.hasNot)
		}
	}
}
