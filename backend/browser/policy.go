package browser

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
)

// Grant is what the user asked for through the door a browser tool call came
// in by (SPEC §5, issue 13). Local files are reached only by the user's
// intent: a file: address is opened and a file is uploaded only when the
// grant of the call covers it. A call without a grant in its context (a
// model's own tool call, an MCP session started without --allow-file) may
// reach no local file at all.
type Grant struct {
	// User is set for commands the user typed themselves: the window's number
	// commands, `waymark browse` commands and `waymark call`. Any file: address
	// or file they give is theirs to open or send.
	User bool
	// Files are the files and folders the user named (absolute paths): a
	// file: address of one of them, or of a file inside one of the folders,
	// may be opened, and such a file uploaded. Symbolic links are resolved on
	// both sides, so a link inside a named folder reaches nothing outside it.
	Files []string
}

type grantKey struct{}

// WithGrant returns ctx whose browser tool calls may reach what g allows.
func WithGrant(ctx context.Context, g Grant) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// GrantFrom returns the grant of ctx (the zero Grant, which allows no local
// file, when there is none).
func GrantFrom(ctx context.Context) Grant {
	g, _ := ctx.Value(grantKey{}).(Grant)
	return g
}

// realPath is p made absolute and clean with its symbolic links resolved (as
// far as the path exists).
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// Allows reports whether the local path p is one the grant covers (the
// assistant checks a model's file: address with it before the call).
func (g Grant) Allows(p string) bool { return g.allows(p) }

// allows reports whether the local path p is one the grant covers.
func (g Grant) allows(p string) bool {
	if g.User {
		return true
	}
	rp := realPath(p)
	for _, f := range g.Files {
		if f == "" {
			continue
		}
		rf := realPath(f)
		if rp == rf || strings.HasPrefix(rp, strings.TrimSuffix(rf, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// errNotGranted is the error for a local path the call may not reach.
func errNotGranted(what, p string) error {
	return fail(KindNotGranted, what, p)
}

// checkNavigation applies the policy to an address before it is opened: a
// file: address must be granted, and no address may carry text the user
// typed into a password field of this session.
func (s *Session) checkNavigation(ctx context.Context, raw string) error {
	u, err := checkURL(raw)
	if err != nil {
		return err
	}
	pu, err := url.Parse(u)
	if err != nil {
		return failWith(KindURLBad, err, raw)
	}
	if strings.EqualFold(pu.Scheme, "file") {
		p := pu.Path
		if p == "" {
			p = pu.Opaque
		}
		if !GrantFrom(ctx).allows(p) {
			return errNotGranted("file address", u)
		}
	}
	if s.typed.carriedBy(u) {
		return fail(KindURLPassword, raw)
	}
	return nil
}

// checkUpload applies the policy to files before they are uploaded.
func checkUpload(ctx context.Context, files []string) error {
	g := GrantFrom(ctx)
	for _, f := range files {
		if !g.allows(f) {
			return errNotGranted("file", f)
		}
	}
	return nil
}

// typedSecrets remembers the text typed into password fields of a session,
// so that no navigation carries it to an address.
type typedSecrets struct {
	mu sync.Mutex
	s  []string
	// fields are the values of password fields typed key by key
	// (browser_press), by field: the last value of each counts.
	fields map[string]string
}

// setField remembers the value of a password field typed key by key; it
// reports whether it is a password worth guarding (three characters or more).
func (t *typedSecrets) setField(key, value string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fields == nil {
		t.fields = map[string]string{}
	}
	t.fields[key] = value
	return len([]rune(value)) >= 3
}

// add remembers a password (three characters or more: shorter ones would
// match everyday addresses); it reports whether it was new.
func (t *typedSecrets) add(text string) bool {
	if len([]rune(text)) < 3 {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.s {
		if s == text {
			return false
		}
	}
	t.s = append(t.s, text)
	return true
}

// all is every remembered password (and the value of every password field
// typed key by key), three characters or more.
func (t *typedSecrets) all() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := append([]string(nil), t.s...)
	for _, v := range t.fields {
		if len([]rune(v)) >= 3 {
			all = append(all, v)
		}
	}
	return all
}

// carriedBy reports whether the address holds a remembered password in any
// simple form (secretForms): as it is, %-encoded, base64, hex, reversed, in
// any case.
func (t *typedSecrets) carriedBy(u string) bool {
	all := t.all()
	if len(all) == 0 {
		return false
	}
	forms := decodedForms(u)
	for _, s := range all {
		plain, coded := secretForms(s)
		if containsAny(forms, plain) || containsAny(forms, coded) {
			return true
		}
	}
	return false
}

// codedInBody reports whether a request's body holds a remembered password
// in a disguise (base64, hex, reversed): a form's own submit carries the
// password as it is or %-encoded, never disguised.
func (t *typedSecrets) codedInBody(body string) bool {
	if body == "" {
		return false
	}
	all := t.all()
	if len(all) == 0 {
		return false
	}
	forms := decodedForms(body)
	for _, s := range all {
		if _, coded := secretForms(s); containsAny(forms, coded) {
			return true
		}
	}
	return false
}

// decodedForms is text in lower case, and again after each round of
// %-decoding (at most four).
func decodedForms(text string) []string {
	forms := []string{strings.ToLower(text)}
	for cur, i := text, 0; i < 4; i++ {
		dec, err := url.QueryUnescape(cur)
		if err != nil || dec == cur {
			break
		}
		forms = append(forms, strings.ToLower(dec))
		cur = dec
	}
	return forms
}

func containsAny(forms, needles []string) bool {
	for _, f := range forms {
		for _, n := range needles {
			if strings.Contains(f, n) {
				return true
			}
		}
	}
	return false
}

// secretForms are the lower-case forms in which a request could carry the
// password s (issue 32 point 4: a page sent btoa(password), and the password
// reversed): plain are s as it is and %-encoded; coded are s in hex and in
// base64 (standard and url-safe, padded or not, and at each of the three
// alignments it takes inside a longer encoded text such as a JSON object),
// s reversed (as it is too) in all of these, and the base64 and hex of s
// read backwards.
// The same goes for s's longer prefixes (two thirds of it, six characters or
// more): a page that sends the field at every key sends them first.
func secretForms(s string) (plain, coded []string) {
	seen := map[string]bool{}
	add := func(list *[]string, n string, min int) {
		n = strings.ToLower(n)
		if len(n) >= min && !seen[n] {
			seen[n] = true
			*list = append(*list, n)
		}
	}
	r := []rune(s)
	minPrefix := max(6, (2*len(r)+2)/3)
	for l := len(r); l >= minPrefix || l == len(r); l-- {
		p := string(r[:l])
		for i, v := range []string{p, reverse(p)} {
			as := &plain
			if i == 1 {
				as = &coded // reversed is a disguise, in a body too
			}
			add(as, v, 3)
			add(as, url.QueryEscape(v), 3)
			add(as, url.PathEscape(v), 3)
			h := hex.EncodeToString([]byte(v))
			add(&coded, h, 4)
			for _, b := range base64Aligned([]byte(v)) {
				add(&coded, b, 4)
				add(&coded, strings.NewReplacer("+", "-", "/", "_").Replace(b), 4)
			}
		}
		full := base64.StdEncoding.EncodeToString([]byte(p))
		for _, v := range []string{full, strings.TrimRight(full, "="), base64.URLEncoding.EncodeToString([]byte(p)), hex.EncodeToString([]byte(p))} {
			add(&coded, reverse(v), 4)
		}
	}
	return plain, coded
}

// base64Aligned is the part of b's base64 that stays the same wherever b
// stands in a longer text: for each of the three byte alignments, the
// characters made of b's bits alone (a padded and an unpadded whole form
// for the first).
func base64Aligned(b []byte) []string {
	out := []string{base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b)}
	for k := 1; k <= 2; k++ {
		enc := base64.StdEncoding.EncodeToString(append(make([]byte, k), b...))
		start, end := (8*k+5)/6, 8*(k+len(b))/6
		if end-start >= 4 && end <= len(enc) {
			out = append(out, enc[start:end])
		}
	}
	// The first alignment without its last, partly padded characters.
	if n := 8 * len(b) / 6; n >= 4 {
		out = append(out, out[0][:n])
	}
	return out
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// notePassword remembers a password typed in the session: from now on no
// request carries it (the guard looks at every navigation).
func (s *Session) notePassword(text string) {
	if s.typed.add(text) {
		s.guardDocuments()
	}
}

// checkLinkTarget applies the navigation policy to the address of the
// numbered link before it is opened in a new tab.
func (s *Session) checkLinkTarget(ctx context.Context, index int) error {
	n := s.current.Load()
	if n == nil || index < 1 || index > len(n.items) {
		return nil // the action itself reports the bad number
	}
	href := n.items[index-1].Href
	if href == "" {
		return nil
	}
	if pu, err := url.Parse(href); err == nil && strings.EqualFold(pu.Scheme, "file") && !GrantFrom(ctx).allows(pu.Path) {
		return fmt.Errorf("link %d: %w", index, errNotGranted("file address", href))
	}
	if s.typed.carriedBy(href) {
		return fail(KindLinkPassword, index)
	}
	return nil
}
