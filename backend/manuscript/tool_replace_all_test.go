package manuscript

import (
	"os"
	"strings"
	"testing"
)

const replaceBook = "# Book\n\n## Chapter 1\n\nMarta came. Marta sat.\n\nPierre stayed.\n\n## Chapter 2\n\nMarta left.\n\n> Marta in a quote.\n\n## Chapter 3\n\nМарта и Пьер. У Пьера дом, с Пьером друг.\n"

// TestReplaceAllIsOneRevision: every occurrence in the range is replaced, the
// result says how many and where, one Undo takes all of them back byte for
// byte, EditsSince lists each place, and TargetSet members stay on their items.
func TestReplaceAllIsOneRevision(t *testing.T) {
	_, doc, call := historyRig(t, replaceBook)
	ts, err := call("TargetSetCreate", `{"name": "s"}`)
	if err != nil {
		t.Fatal(err)
	}
	id := ts["targetSetId"].(string)
	if _, err := call("TargetSetAdd", `{"targetSetId": "`+id+`", "itemIndices": [3, 5]}`); err != nil {
		t.Fatal(err)
	}
	before, _ := call("History", `{"limit": 1}`)
	since := before["revisions"].([]any)[0].(map[string]any)["revision"].(float64)
	r, err := call("ReplaceAll", `{"query": "Marta", "with": "Martha"}`)
	if err != nil {
		t.Fatal(err)
	}
	if r["count"].(float64) != 3 || r["items"].(float64) != 2 {
		t.Fatalf("replaced %v in %v items, want 3 in 2 (the quote is not searched): %v", r["count"], r["items"], r)
	}
	b, _ := os.ReadFile(doc)
	want := strings.Replace(strings.Replace(replaceBook, "Marta came. Marta sat.", "Martha came. Martha sat.", 1), "Marta left.", "Martha left.", 1)
	if string(b) != want {
		t.Fatalf("file:\n%s", b)
	}
	places := r["places"].([]any)
	if s := places[0].(map[string]any)["section"]; s != "Book, Chapter 1" {
		t.Errorf("section %v", s)
	}
	ed, err := call("EditsSince", `{"sinceRevision": `+jsonNum(since)+`}`)
	if err != nil {
		t.Fatal(err)
	}
	edits := ed["edits"].([]any)
	if len(edits) != 2 {
		t.Fatalf("EditsSince lists %d edits, want one per place (2): %v", len(edits), edits)
	}
	for _, e := range edits {
		e := e.(map[string]any)
		if !strings.Contains(e["after"].(string), "Martha") || strings.Contains(e["before"].(string), "Pierre") {
			t.Errorf("edit %v", e)
		}
	}
	got, _ := call("TargetSetGet", `{"targetSetId": "`+id+`"}`)
	if idx := got["itemIndices"].([]any); len(idx) != 2 || idx[0].(float64) != 3 || idx[1].(float64) != 5 {
		t.Errorf("members after the replace: %v", got)
	}
	if _, err := call("Undo", `{}`); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(doc); string(b) != replaceBook {
		t.Fatalf("one Undo gives back:\n%s", b)
	}
}

// TestReplaceAllOptions: a range, the first only, word forms (Пьера → Петра),
// match case, a regular expression, a preview that changes nothing, and
// errors that say what is wrong.
func TestReplaceAllOptions(t *testing.T) {
	for _, c := range []struct {
		args, want, err string
	}{
		{args: `{"query": "Marta", "with": "Martha", "fromIndex": 5, "toIndex": 8}`, want: "Martha left."},
		{args: `{"query": "Marta", "with": "Martha", "first": true}`, want: "Martha came. Marta sat."},
		{args: `{"query": "Пьер", "with": "Петр", "forms": true}`, want: "Марта и Петр. У Петра дом, с Петром друг."},
		{args: `{"query": "Пьер", "with": "Петр"}`, want: "Марта и Петр. У Пьера дом, с Пьером друг."},
		{args: `{"query": "marta", "with": "X", "matchCase": true}`, err: "does not occur"},
		{args: `{"query": "Mar(ta)", "with": "Mo$1", "regex": true, "first": true}`, want: "Mota came."},
		{args: `{"query": "art", "with": "ART", "partOfWord": true, "first": true}`, want: "MARTa came."},
		{args: `{"query": "(", "with": "x", "regex": true}`, err: "not valid"},
		{args: `{"query": "Пьер", "with": "Петр", "forms": true, "regex": true}`, err: "word forms work with whole words"},
		{args: `{"query": "Marta", "with": "Martha", "fromIndex": 9, "toIndex": 3}`, err: "not within the book"},
	} {
		_, doc, call := historyRig(t, replaceBook)
		_, err := call("ReplaceAll", c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.args, err, c.err)
			}
			if b, _ := os.ReadFile(doc); string(b) != replaceBook {
				t.Errorf("%s: a refused replace changed the file", c.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.args, err)
			continue
		}
		if b, _ := os.ReadFile(doc); !strings.Contains(string(b), c.want) {
			t.Errorf("%s: the file lacks %q:\n%s", c.args, c.want, b)
		}
	}
	_, doc, call := historyRig(t, replaceBook)
	p, err := call("ReplaceAll", `{"query": "Marta", "with": "Martha", "preview": true}`)
	if err != nil || p["count"].(float64) != 3 || p["preview"] != true {
		t.Fatalf("preview: %v %v", p, err)
	}
	if b, _ := os.ReadFile(doc); string(b) != replaceBook {
		t.Fatal("a preview changed the file")
	}
}

// TestDeleteAllIsOneRevision: every paragraph holding the phrase goes in one
// revision; one Undo brings them back.
func TestDeleteAllIsOneRevision(t *testing.T) {
	_, doc, call := historyRig(t, replaceBook)
	r, err := call("DeleteAll", `{"query": "Marta"}`)
	if err != nil {
		t.Fatal(err)
	}
	if r["count"].(float64) != 3 {
		t.Fatalf("deleted %v, want the 2 paragraphs and the quote: %v", r["count"], r)
	}
	b, _ := os.ReadFile(doc)
	if strings.Contains(string(b), "Marta") || !strings.Contains(string(b), "Pierre stayed.") || !strings.Contains(string(b), "Марта и Пьер") {
		t.Fatalf("file:\n%s", b)
	}
	if _, err := call("Undo", `{}`); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(doc); string(b) != replaceBook {
		t.Fatalf("one Undo gives back:\n%s", b)
	}
}

// TestReplaceAllKeepsCapitals: each occurrence keeps its capitals — a
// sentence's capital first letter, all capitals — whatever door calls the
// tool (the command, the find bar, a model); matchCase and a regular
// expression replace as typed. With word forms each form becomes its own
// case of the new name (Марьей → Марией, Марьею → Мариею), and where one
// form's new form cannot be derived with certainty nothing is changed and
// the forms are named (a preview lists them).
func TestReplaceAllKeepsCapitals(t *testing.T) {
	const book = "# Book\n\nКнязь Андрей вошёл. Вот князь Андрей и КНЯЗЬ АНДРЕЙ.\n\nМарья и Марью, Марьей, Марьею; МАРЬЕ.\n\nAndrew came; andrew's dog. The Rostovs.\n"
	for _, c := range []struct {
		args, want, err string
	}{
		{args: `{"query": "князь Андрей", "with": "князь Андрей Николаевич"}`, want: "Князь Андрей Николаевич вошёл. Вот князь Андрей Николаевич и КНЯЗЬ АНДРЕЙ НИКОЛАЕВИЧ."},
		{args: `{"query": "Князь Андрей", "with": "Князь Болконский"}`, want: "Князь Болконский вошёл. Вот князь Болконский и КНЯЗЬ БОЛКОНСКИЙ."},
		{args: `{"query": "Andrew", "with": "Andrei"}`, want: "Andrei came; andrei's dog."},
		{args: `{"query": "князь", "with": "граф", "matchCase": true}`, want: "Князь Андрей вошёл. Вот граф Андрей"},
		{args: `{"query": "(к)нязь", "with": "${1}нягиня", "regex": true}`, want: "Княгиня Андрей вошёл. Вот княгиня Андрей и Княгиня АНДРЕЙ."},
		{args: `{"query": "Марью", "with": "Марию", "forms": true}`, want: "Мария и Марию, Марией, Мариею; МАРИИ."},
		{args: `{"query": "князь Андрей", "with": "граф Андрюша", "forms": true}`, want: "Граф Андрюша вошёл. Вот граф Андрюша и ГРАФ АНДРЮША."},
		{args: `{"query": "Rostov", "with": "Rostoff", "forms": true}`, want: "The Rostoffs."},
		{args: `{"query": "Марья", "with": "Андрей", "forms": true}`, err: "cannot be derived with certainty"},
		{args: `{"query": "Марья", "with": "", "forms": true}`, want: " и , , ; ."},
	} {
		_, doc, call := historyRig(t, book)
		_, err := call("ReplaceAll", c.args)
		b, _ := os.ReadFile(doc)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.args, err, c.err)
			}
			if string(b) != book {
				t.Errorf("%s: a refused replace changed the file:\n%s", c.args, b)
			}
			continue
		}
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %v; the file lacks %q:\n%s", c.args, err, c.want, b)
		}
	}
	_, doc, call := historyRig(t, book)
	p, err := call("ReplaceAll", `{"query": "Марья", "with": "Андрей", "forms": true, "preview": true}`)
	if err != nil || p["underived"] == nil || !strings.Contains(p["summary"].(string), "«МАРЬЕ» (1)") {
		t.Fatalf("preview: %v %v", p, err)
	}
	if b, _ := os.ReadFile(doc); string(b) != book {
		t.Fatal("a preview changed the file")
	}
}
