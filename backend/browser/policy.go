package browser

import (
	"context"
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
	return invalid("%s %q: local files are reached only when the user asked for them; "+
		"this call was not given that file (in the window and `waymark browse` type the command yourself; "+
		"for MCP start the server with --allow-file PATH; the assistant uses only files and file: addresses named in your own words)", what, p)
}

// checkNavigation applies the policy to an address before it is opened: a
// file: address must be granted, and no address may carry text the user
// typed into a password field of this session.
func (s *Session) checkNavigation(ctx context.Context, raw string) error {
	u, err := checkURL(raw)
	if err != nil {
		return invalid("%v", err)
	}
	pu, err := url.Parse(u)
	if err != nil {
		return invalid("url %q: %v", raw, err)
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
		return invalid("url %q carries text typed into a password field: a password is never sent to an address; open the page without it", raw)
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

// carriedBy reports whether the address holds a remembered password, as it
// is or %-encoded, in any case.
func (t *typedSecrets) carriedBy(u string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := append([]string(nil), t.s...)
	for _, v := range t.fields {
		if len([]rune(v)) >= 3 {
			all = append(all, v)
		}
	}
	if len(all) == 0 {
		return false
	}
	forms := []string{strings.ToLower(u)}
	for cur := u; ; {
		dec, err := url.QueryUnescape(cur)
		if err != nil || dec == cur {
			break
		}
		forms = append(forms, strings.ToLower(dec))
		cur = dec
	}
	for _, s := range all {
		ls := strings.ToLower(s)
		for _, f := range forms {
			if strings.Contains(f, ls) || strings.Contains(f, strings.ToLower(url.QueryEscape(s))) || strings.Contains(f, strings.ToLower(url.PathEscape(s))) {
				return true
			}
		}
	}
	return false
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
		return invalid("link %d carries text typed into a password field: it is not opened", index)
	}
	return nil
}
