package manuscript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const peopleBook = "# Роман\n\n## Глава 1\n\n— Здравствуйте, — сказала Наташа. Князь Андрей молчал.\n\nНаташа засмеялась, а Андрей улыбнулся Наташе.\n\nВ Москве было тихо. Из Москвы уехали все.\n\n## Глава 2\n\nС Наташей говорил граф Ростов. — Да, — сказал Ростов.\n\nНаташи не было дома; Андрея ждали. Ростова звали к обеду, и Ростов пришёл.\n"

// TestCharactersTool: the people of a small Russian book, case forms
// merged, with the first mention and the mentions per chapter; Moscow is a
// place, not a person; the list is written to a file, never over one.
func TestCharactersTool(t *testing.T) {
	_, _, call := historyRig(t, peopleBook)
	dir := t.TempDir()
	out := filepath.Join(dir, "people.csv")
	r, err := call("Characters", `{"minMentions": 2, "format": "csv", "path": "`+out+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]any{}
	for _, c := range r["characters"].([]any) {
		c := c.(map[string]any)
		byName[c["name"].(string)] = c
	}
	nat := byName["Наташа"]
	if nat == nil || nat["mentions"].(float64) != 5 || len(nat["chapters"].([]any)) != 2 {
		t.Fatalf("Наташа: %v (all: %v)", nat, r["characters"])
	}
	if f := nat["first"].(map[string]any); f["section"] != "Роман, Глава 1" {
		t.Errorf("first mention %v", f)
	}
	if byName["Андрей"] == nil || byName["Ростов"] == nil {
		t.Errorf("Андрей or Ростов missing: %v", r["characters"])
	}
	for name := range byName {
		if strings.HasPrefix(name, "Москв") {
			t.Errorf("a place as a person: %s", name)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "Наташа,") || !strings.HasPrefix(string(b), "name,forms,mentions") {
		t.Fatalf("export: %q %v", b, err)
	}
	if _, err := call("Characters", `{"path": "`+out+`"}`); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("an existing file was not refused: %v", err)
	}
}
