package author

import (
	"strings"
	"unicode"

	"github.com/waymark/waymark/backend/wordforms"
)

// nameOf is how an answer names what a command sought with its word forms:
// the name, not the case form typed («собери упоминания Долоховым» collects
// the mentions of «Долохов»). Each Russian word becomes its dictionary form
// when it has exactly one; a word with none or several, an English word, or
// a command that asked for the exact words stays as typed.
func nameOf(in Intent) string {
	if in.Exact || in.Semantic {
		return in.Object
	}
	words := strings.Fields(in.Object)
	cyr := false
	for _, w := range words {
		for _, r := range w {
			cyr = cyr || unicode.Is(unicode.Cyrillic, r)
		}
	}
	if !cyr {
		return in.Object
	}
	d := wordforms.Default()
	for k, w := range words {
		core := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
		if core == "" {
			continue
		}
		first := []rune(core)[0]
		ls := d.Lemmas(core, unicode.IsUpper(first))
		if len(ls) != 1 {
			continue
		}
		lemma := ls[0]
		if unicode.IsUpper(first) {
			lemma = string(unicode.ToUpper([]rune(lemma)[0])) + string([]rune(lemma)[1:])
		}
		words[k] = strings.Replace(w, core, lemma, 1)
	}
	return strings.Join(words, " ")
}

// quoteOnce wraps a sentence quoted in an answer in quotation marks, «…» or
// “…”, unless it starts or ends with its own (a line of dialogue: “I bet on
// Dólokhov!” cried a third.), which a second pair would only double.
func quoteOnce(s string, ru bool) string {
	t := strings.TrimPrefix(strings.TrimSpace(s), "…")
	if strings.ContainsAny(firstRune(t), "«“„\"") || strings.ContainsAny(lastRune(strings.TrimSuffix(t, "…")), "»”\"") {
		return s
	}
	if ru {
		return "«" + s + "»"
	}
	return "“" + s + "”"
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

func lastRune(s string) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return ""
	}
	return string(rs[len(rs)-1])
}
