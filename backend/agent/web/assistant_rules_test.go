package web

import (
	"slices"
	"testing"
)

func TestSecretsTheUserStated(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"sign in as anna with the password correct horse", []string{"correct horse"}},
		{"sign in as anna with the password correct horse, then open the best kettle thread", []string{"correct horse"}},
		{"log in, password: \"s3cret!\" and check mail", []string{"s3cret!"}},
		{"войди как anna, пароль qwerty123 и открой почту", []string{"qwerty123"}},
		{"код из смс: 4321", []string{"4321"}},
		{"make a shopping list and pin it", nil},
		{"my PIN is 0000", []string{"0000"}},
		{"buy the blue kettle, delivery by courier, name Anna Petrova", nil},
	}
	for _, c := range cases {
		if got := secretsIn(c.text); !slices.Equal(got, c.want) {
			t.Errorf("secretsIn(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if !holdsSecret("my Correct Horse", []string{"correct horse"}) || holdsSecret("kettle", []string{"correct horse"}) {
		t.Error("holdsSecret")
	}
}

func TestDestructiveClicksTheUserDidNotAskFor(t *testing.T) {
	cases := []struct {
		name string
		user []string
		ask  bool
	}{
		{"Delete account", []string{"open the best kettle thread"}, true},
		{"Delete account", []string{"delete my forum account"}, false},
		{"Удалить аккаунт", []string{"открой форум"}, true},
		{"Удалить письмо", []string{"удали письмо от банка"}, false},
		{"Clear history", []string{"clear the history"}, false},
		{"Unsubscribe", []string{"read the newsletter"}, true},
		{"Add to cart", []string{"buy a kettle"}, false},
		{"Remove from cart", []string{"buy a kettle"}, true},
	}
	for _, c := range cases {
		if got := unrequestedDestruction(c.name, c.user); got != c.ask {
			t.Errorf("%q after %q: ask %v, want %v", c.name, c.user, got, c.ask)
		}
	}
}
