package author

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"
)

const renameBook = "# Повесть\n\n## Глава 1\n\nМарья вошла. Князь Андрей встал; князь Андрей поклонился Марье.\n\n## Глава 2\n\nОн ждал Марью, говорил с Марьей и с Марьею, думал о Марье; у Марьи дом. МАРЬЯ!\n\nNatasha came; Natasha's dog ran.\n"

// TestRenameEveryCaseForm: a rename renames every case form of the name,
// each in its own case and with its capitals (the command door), and the
// answer names each form with its count; a replace keeps each occurrence's
// capitals; a rename one of whose forms cannot be derived with certainty
// changes nothing, fails, and names that form.
func TestRenameEveryCaseForm(t *testing.T) {
	for _, c := range []struct {
		cmd, answer string
		has         []string
		hasNot      string
		nothing     bool
	}{
		{cmd: "переименуй Марью в Марию во всей книге",
			answer: "(Марье → Марии ×2, Марья → Мария ×1, Марью → Марию ×1, Марьей → Марией ×1, Марьею → Мариею ×1, Марьи → Марии ×1, МАРЬЯ → МАРИЯ ×1)",
			has:    []string{"Мария вошла.", "поклонился Марии.", "Он ждал Марию, говорил с Марией и с Мариею, думал о Марии; у Марии дом. МАРИЯ!"}, hasNot: "Марь"},
		{cmd: "замени «князь Андрей» на «князь Андрей Николаевич» по всей книге", answer: "2 раза",
			has: []string{"Князь Андрей Николаевич встал; князь Андрей Николаевич поклонился"}},
		{cmd: "rename Natasha to Natalie", answer: "(Natasha → Natalie ×2)",
			has: []string{"Natalie came; Natalie's dog ran."}, hasNot: "Natasha"},
		{cmd: "переименуй Марью в Андрея", answer: "Ничего не изменено: для «Марье» (2), «Марьею» (1), «Марьи» (1) нельзя с уверенностью вывести форму", nothing: true},
	} {
		e := newEnv(t, renameBook, nil)
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if !strings.Contains(answer, c.answer) || (err != nil) != c.nothing || c.nothing && !errors.Is(err, ErrNothingDone) {
			t.Errorf("%s: %q (%v), want %q", c.cmd, answer, err, c.answer)
		}
		b, _ := os.ReadFile(e.doc)
		if c.nothing && string(b) != renameBook {
			t.Errorf("%s: a refused rename changed the book:\n%s", c.cmd, b)
		}
		for _, h := range c.has {
			if !strings.Contains(string(b), h) {
				t.Errorf("%s: the book lacks %q:\n%s", c.cmd, h, b)
			}
		}
		if c.hasNot != "" && strings.Contains(string(b), c.hasNot) {
			t.Errorf("%s: the book still holds %q:\n%s", c.cmd, c.hasNot, b)
		}
	}
}

// TestRenameInTheRussianBook: on War and Peace, «переименуй Марью в Марию»
// renames the 842 forms of Марья (522 Марья, 131 Марьи, 94 Марье, 48 Марью,
// 44 Марьей, 3 Марьею; it changed only the 48 Марью). (The capitals kept
// are TestRenameEveryCaseForm's and TestReplaceAllKeepsCapitals'.)
func TestRenameInTheRussianBook(t *testing.T) {
	text := loadBook(t, "ru")
	words := func(s string) map[string]int {
		n := map[string]int{}
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
			n[w]++
		}
		return n
	}
	before := words(text)
	e := newEnv(t, text, nil)
	answer, err := runOne(t, e, &CommandAgent{}, "переименуй Марью в Марию во всей книге")
	if err != nil || !strings.Contains(answer, "842 раза") {
		t.Fatalf("%q %v", answer, err)
	}
	b, _ := os.ReadFile(e.doc)
	after := words(string(b))
	for _, c := range []struct {
		old, new string
		n        int
	}{{"Марья", "Мария", 522}, {"Марьи", "Марии", 131}, {"Марье", "Марии", 94}, {"Марью", "Марию", 48}, {"Марьей", "Марией", 44}, {"Марьею", "Мариею", 3}} {
		if got := after[c.old]; got != 0 {
			t.Errorf("%d «%s» left", got, c.old)
		}
		if !strings.Contains(answer, fmt.Sprintf("%s → %s ×%d", c.old, c.new, c.n)) {
			t.Errorf("the answer does not name %s → %s: %s", c.old, c.new, answer)
		}
	}
	if got, want := after["Марии"], before["Марии"]+131+94; got != want {
		t.Errorf("%d «Марии», want %d", got, want)
	}
}
