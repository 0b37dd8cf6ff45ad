package wordforms

import "testing"

// TestRenamerDerivesEachCase: renaming gives each form found its own case of
// the new name, with its capitals (Марьей → Марией, Марьею → Мариею, МАРЬЕЙ
// → МАРИЕЙ), for a phrase too (князя Андрея → князя Андрея Николаевича);
// a form whose case would need another new form (Андрея: genitive Андрюши or
// accusative Андрюшу) is not derived ("" below), nor an ending it does not
// know (Natashka).
func TestRenamerDerivesEachCase(t *testing.T) {
	d, err := Russian()
	if err != nil {
		t.Skipf("hunspell-ru is not installed: %v", err)
	}
	for _, c := range []struct{ query, with, found, want string }{
		{"Марью", "Марию", "Марья", "Мария"},
		{"Марью", "Марию", "Марьи", "Марии"},
		{"Марью", "Марию", "Марье", "Марии"},
		{"Марью", "Марию", "Марью", "Марию"},
		{"Марью", "Марию", "Марьей", "Марией"},
		{"Марью", "Марию", "Марьею", "Мариею"},
		{"Марью", "Марию", "МАРЬЕЙ", "МАРИЕЙ"},
		{"Марья", "Мария", "марьи", "марии"},
		{"князь Андрей", "князь Андрей Николаевич", "Князь Андрей", "Князь Андрей Николаевич"},
		{"князь Андрей", "князь Андрей Николаевич", "князя Андрея", "князя Андрея Николаевича"},
		{"князь Андрей", "князь Андрей Николаевич", "князю Андрею", "князю Андрею Николаевичу"},
		{"князь Андрей", "князь Андрей Николаевич", "князем Андреем", "князем Андреем Николаевичем"},
		{"князь Андрей", "князь Андрей Николаевич", "князе Андрее", "князе Андрее Николаевиче"},
		{"князь Андрей", "князь Андрей Николаевич", "КНЯЗЬ АНДРЕЙ", "КНЯЗЬ АНДРЕЙ НИКОЛАЕВИЧ"},
		{"князь Андрей", "князь Болконский", "князем Андреем", "князем Болконским"},
		{"Пьер", "Петр", "Пьера", "Петра"},
		{"Пьер", "Петр", "Пьером", "Петром"},
		{"Пьер", "Петр", "Пьер", "Петр"},
		{"Наташа", "Маша", "Наташей", "Машей"},
		{"Наташа", "Маша", "НАТАШИ", "МАШИ"},
		{"Наташа", "Натали", "Наташей", "Натали"},
		{"Долохов", "Курагин", "Долоховым", "Курагиным"},
		{"Долохов", "Курагин", "Долоховых", "Курагиных"},
		{"Берг", "Бек", "Бергов", "Беков"},
		{"Соня", "Софи", "Сони", "Софи"},
		{"Андрей", "Андрюша", "Андрею", "Андрюше"},
		{"Андрей", "Андрюша", "Андрея", ""},
		{"Андрея", "Андрюшу", "Андрея", ""},
		{"Андрей", "Андрюша", "Андреем", ""},
		{"Наташа", "Элен", "Наташи", ""},
		{"Rostov", "Rostoff", "Rostovs", "Rostoffs"},
		{"Natasha", "Natalie", "Natasha's", "Natalie's"},
		{"Natasha", "Natalie", "Natasha’s", "Natalie’s"},
		{"Natasha", "Natalie", "NATASHA", "NATALIE"},
		{"Natasha", "Natalie", "Natashka", ""},
	} {
		got, ok := NewRenamer(d, c.query, c.with).Derive(c.found)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s → %s: %s gives %q (%v), want %q", c.query, c.with, c.found, got, ok, c.want)
		}
	}
}

// TestKeepCase: the new text takes each occurrence's capitals as the
// occurrence differs from the query typed.
func TestKeepCase(t *testing.T) {
	for _, c := range []struct{ query, found, with, want string }{
		{"князь Андрей", "Князь Андрей", "князь Андрей Николаевич", "Князь Андрей Николаевич"},
		{"князь Андрей", "князь Андрей", "князь Андрей Николаевич", "князь Андрей Николаевич"},
		{"князь Андрей", "КНЯЗЬ АНДРЕЙ", "князь Андрей Николаевич", "КНЯЗЬ АНДРЕЙ НИКОЛАЕВИЧ"},
		{"Князь", "князь", "Граф", "граф"},
		{"Prince", "Prince", "prince", "prince"},
		{"prince", "Prince", "count", "Count"},
		{"I", "I", "we", "we"},
		{"art", "art", "ART", "ART"},
		{"marta", "«Marta", "«martha", "«Martha"},
	} {
		if got := KeepCase(c.query, c.found, c.with); got != c.want {
			t.Errorf("KeepCase(%q, %q, %q) = %q, want %q", c.query, c.found, c.with, got, c.want)
		}
	}
}
