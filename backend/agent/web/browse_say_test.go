package web

import (
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// An element is named by its role in words, its name in the language's
// quotes (the old code: (combobox "Language of the guide") in Russian).
func TestErrorNamesElementInWords(t *testing.T) {
	err := &browser.Error{Kind: browser.KindDisabled, Args: []any{6, browser.Label{Role: "combobox", Name: "Language of the guide"}}}
	if got, want := err.Error(), `element 6 (combobox "Language of the guide") is disabled`; got != want {
		t.Errorf("the model's text: %q, want %q", got, want)
	}
	for l, want := range map[Lang]string{
		Russian: "Элемент 6 (поле со списком «Language of the guide») недоступен.",
		English: "Element 6 (combobox “Language of the guide”) is disabled.",
	} {
		if got := SpokenError(l, err); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}
