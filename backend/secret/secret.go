// Package secret finds the secret-looking parts of what a user says (a
// password or code a sentence states, the text of a typing command, also a
// misspelled one, the second half of "user NAME / SECRET") and hides them,
// so that what is stored or said back never holds them (issue 21). The
// store hides them in every browser transcript line it writes (Hide), and
// the browser assistant knows from them which secrets the user gave.
package secret

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mask is what a hidden secret becomes.
const Mask = "•••"

// stated finds a secret stated after a word that names one: "my password is
// correct horse, then …", "pw: s3cret", "пароль qwerty", "PIN is 0000",
// "код из смс: 4321". Everyday words ("pin it", "the code of conduct") are not
// taken: "pin", "code", "pw" and "pass" need ":", "=" or "is" before the
// secret.
var stated = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(?:` +
		`(?:password|passcode|passphrase|passwd|pin code|pin-code|one[- ]time code|verification code|sms code|пароль|паролем|пароля|пин-код|пинкод|код из смс|код подтверждения|одноразовый код|код)(?:[ \t]+(?:is|это)[ \t]+|[ \t]*[:=—–-][ \t]*|[ \t]+)` +
		`|(?:pin|code|pwd|pw|pass|otp|cvv|cvc|пин)(?:[ \t]+(?:is|это)[ \t]+|[ \t]*[:=][ \t]*))` +
		`["«“']?([^"»”',.;\s(][^"»”',.;\n]*?)["»”']?[ \t]*(?:[,.;\n]|[ \t](?:and|then|и|затем|потом|а)[ \t]|$)`)
})

// notSecret are words that follow "password" or "пароль" in everyday
// speech ("find password reset", "поле пароля"), not a secret.
var notSecret = map[string]bool{
	"reset": true, "field": true, "fields": true, "box": true, "page": true, "form": true, "manager": true, "recovery": true,
	"change": true, "strength": true, "hint": true, "policy": true, "rules": true, "protected": true, "settings": true,
	"сброс": true, "поле": true, "восстановление": true, "менеджер": true, "смена": true, "подсказка": true, "настройки": true,
}

// credentials finds "user alice / SECRET", "login bob: SECRET".
var credentials = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:user(?:name)?|login|логин|пользователь)[ \t]+\S+[ \t]*[/:][ \t]*["«“']?([^"»”'\s,;]+)`)
})

// typingVerbs are the verbs of the number command that types text: "type 3
// hello", "введи 3 привет".
var typingVerbs = []string{"type", "write", "enter", "введи", "напиши", "впиши"}

// typing finds a number command's verb, number and text.
var typing = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(\p{L}+)\s+(\d+)\s+(.+?)\s*$`) })

// typingText returns the text of a typing command, also when its verb is
// misspelled ("tpye 2 X", "ввди 2 X").
func typingText(line string) string {
	m := typing().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	verb := strings.ToLower(m[1])
	for _, v := range typingVerbs {
		limit := 1
		if utf8.RuneCountInString(v) > 5 {
			limit = 2
		}
		if verb == v || distance(verb, v) <= limit {
			return strings.Trim(m[3], `"«»“”`)
		}
	}
	return ""
}

// Find returns the secret-looking parts of text.
func Find(text string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s != "" && s != Mask {
			out = append(out, s)
		}
	}
	for _, m := range stated().FindAllStringSubmatch(text, -1) {
		if !notSecret[strings.ToLower(strings.Fields(m[1] + " x")[0])] {
			add(m[1])
		}
	}
	for _, m := range credentials().FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, line := range strings.Split(text, "\n") {
		add(typingText(line))
	}
	return out
}

// HideIn replaces every one of secrets in text with Mask (case-insensitive).
func HideIn(text string, secrets []string) string {
	for _, s := range secrets {
		if s == "" || s == Mask {
			continue
		}
		re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(s))
		if err != nil {
			continue
		}
		text = re.ReplaceAllLiteralString(text, Mask)
	}
	return text
}

// Known are the secrets seen so far (in a store's transcripts): a line that
// names one again, with no word before it to say it is one, hides it too.
type Known struct {
	mu sync.Mutex
	s  []string
}

// minKnown is the shortest secret hidden wherever it appears: shorter ones
// would hide everyday words.
const minKnown = 3

// Hide returns the user's own words (a command, a goal, an answer) with
// their secrets and every known one hidden, and remembers theirs. k may be
// nil.
func (k *Known) Hide(text string) string {
	return k.hide(text, Find(text))
}

// HideKnown returns text (a result, a progress line: the page's words, in
// which a field named Password is no secret) with the known secrets hidden.
func (k *Known) HideKnown(text string) string {
	return k.hide(text, nil)
}

func (k *Known) hide(text string, found []string) string {
	all := append([]string(nil), found...)
	if k != nil {
		k.mu.Lock()
		for _, f := range found {
			if utf8.RuneCountInString(f) >= minKnown && !contains(k.s, f) {
				k.s = append(k.s, f)
			}
		}
		all = append(all, k.s...)
		k.mu.Unlock()
	}
	// Longer first, so a secret inside another one is not half hidden.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && len(all[j]) > len(all[j-1]); j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	return HideIn(text, all)
}

// HideJSON applies hide (Hide or HideKnown) to every string of a JSON value
// (a transcript line is one); a value that is not JSON is hidden as text.
func HideJSON(raw string, hide func(string) string) string {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return hide(raw)
	}
	b, err := json.Marshal(walk(v, hide))
	if err != nil {
		return raw
	}
	return string(b)
}

func walk(v any, hide func(string) string) any {
	switch x := v.(type) {
	case string:
		return hide(x)
	case []any:
		for i := range x {
			x[i] = walk(x[i], hide)
		}
	case map[string]any:
		for key, val := range x {
			x[key] = walk(val, hide)
		}
	}
	return v
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
}

// distance is the Damerau–Levenshtein distance (adjacent transpositions
// count one) between a and b, in characters.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
