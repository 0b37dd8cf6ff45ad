package secret

import (
	"slices"
	"testing"
)

// What a user's words give away is found; everyday words are not.
func TestFind(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"sign in as anna with the password correct horse", []string{"correct horse"}},
		{"sign in as anna with the password correct horse, then open the best kettle thread", []string{"correct horse"}},
		{`log in, password: "s3cret!" and check mail`, []string{"s3cret!"}},
		{"log in, pw: pw-colon-secret", []string{"pw-colon-secret"}},
		{"my pwd=hunter2", []string{"hunter2"}},
		{"the code is 123456", []string{"123456"}},
		{"code: 998877", []string{"998877"}},
		{"my PIN is 0000", []string{"0000"}},
		{"войди как anna, пароль qwerty123 и открой почту", []string{"qwerty123"}},
		{"код из смс: 4321", []string{"4321"}},
		{"введи код 7731", []string{"7731"}},
		{"пин: 2468", []string{"2468"}},
		{"sign in as user alice / alice-slash-secret", []string{"alice-slash-secret"}},
		{"login bob: b0b-pass", []string{"b0b-pass"}},
		{"type 3 hunter2", []string{"hunter2"}},
		{"tpye 2 qz7-typo-secret", []string{"qz7-typo-secret"}},
		{"typ 2 short", []string{"short"}},
		{"введи 4 секрет", []string{"секрет"}},
		{"ввди 4 секрет", []string{"секрет"}},
		{"напиш 1 привет", []string{"привет"}},
		// Everyday words.
		{"make a shopping list and pin it", nil},
		{"buy the blue kettle, delivery by courier, name Anna Petrova", nil},
		{"read the code of conduct", nil},
		{"open 2 in new tab", nil},
		{"find password reset", nil},
		{"click 5", nil},
	} {
		if got := Find(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Find(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A secret once said is hidden wherever it comes back; the page's words
// are not searched for secrets (a field named Password is none).
func TestKnownHides(t *testing.T) {
	var k Known
	if got := k.Hide("sign in as user alice / Tr0ub4dor&3"); got != "sign in as user alice / •••" {
		t.Errorf("goal: %q", got)
	}
	if got := k.HideKnown("Typing Tr0ub4dor&3 into 2.\n1. textbox Password\n2. button Go"); got != "Typing ••• into 2.\n1. textbox Password\n2. button Go" {
		t.Errorf("progress: %q", got)
	}
	if got := HideJSON(`{"say":"tr0ub4dor&3 typed","n":3,"list":["x Tr0ub4dor&3"]}`, k.HideKnown); got != `{"list":["x •••"],"n":3,"say":"••• typed"}` {
		t.Errorf("JSON: %s", got)
	}
	if got := HideJSON(`"pw: abc123"`, k.Hide); got != `"pw: •••"` {
		t.Errorf("JSON string: %s", got)
	}
	var nilK *Known
	if got := nilK.Hide("password: x1y2"); got != "password: •••" {
		t.Errorf("nil Known: %q", got)
	}
}
