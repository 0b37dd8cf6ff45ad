package web

import (
	"encoding/base64"
	"encoding/hex"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Where the assistant may go and what it may send there (issue 21): the
// places the user's own words name (sites, files and folders), the site a
// secret was given for, and the forms a secret may be disguised in.

// place is a site the user's words name: its host (normalised: an IPv4
// address in any spelling is written as a.b.c.d) and, when given, its port.
type place struct{ host, port string }

// wordToken splits the user's words into the tokens that may name a place.
var wordToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\s"'«»“”()<>,;]+`) })

// namedPlaces are the sites the user's words name: full addresses
// ("https://example.org/x") and bare ones ("example.org", "127.0.0.1:8611",
// "localhost:3000").
func namedPlaces(words []string) []place {
	var out []place
	for _, w := range words {
		for _, tok := range wordToken().FindAllString(w, -1) {
			tok = strings.TrimRight(tok, ".!?:")
			raw := tok
			if !strings.Contains(raw, "://") {
				host, _, _ := strings.Cut(raw, "/")
				h, _, _ := strings.Cut(host, ":")
				if h == "" || (!strings.Contains(h, ".") && !strings.EqualFold(h, "localhost")) || strings.ContainsAny(h, "@") {
					continue
				}
				raw = "http://" + raw
			}
			u, err := url.Parse(raw)
			if err != nil || u.Hostname() == "" || strings.EqualFold(u.Scheme, "file") {
				continue
			}
			out = append(out, place{host: normalHost(u.Hostname()), port: u.Port()})
		}
	}
	return out
}

// placeOf is the site of an address (its port written out).
func placeOf(raw string) (place, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Hostname() == "" {
		return place{}, false
	}
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return place{host: normalHost(u.Hostname()), port: port}, true
}

// within reports whether p is one of the places (a place named without a
// port covers every port of its host).
func (p place) within(places []place) bool {
	for _, q := range places {
		if q.host == p.host && (q.port == "" || q.port == p.port) {
			return true
		}
	}
	return false
}

// normalHost lower-cases a host and writes an IPv4 address given in another
// spelling ("2130706433", "0x7f.1", "0177.0.0.1") as a.b.c.d, as browsers
// read it.
func normalHost(h string) string {
	h = strings.ToLower(strings.Trim(h, "[]"))
	if ip := ipv4(h); ip != "" {
		return ip
	}
	return h
}

// ipv4 reads a host as browsers read an IPv4 address (one to four parts,
// each decimal, 0x hex or 0 octal, the last filling the rest); "" when it
// is none.
func ipv4(h string) string {
	parts := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(parts) == 0 || len(parts) > 4 {
		return ""
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return ""
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return ""
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return ""
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return ""
	}
	v |= last
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String()
}

// isAddress reports whether a host is written as an IP address (in any
// spelling), not a name.
func isAddress(h string) bool {
	h = strings.Trim(h, "[]")
	return ipv4(strings.ToLower(h)) != "" || net.ParseIP(h) != nil
}

// pathToken finds a local path in the user's words: a file: address, or a
// token that starts with / or ~/ (not the path inside a web address).
var pathToken = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s"'«“(])((?:file://|~/|/)[^\s"'»”),;]*)`)
})

// namedPaths are the files and folders the user's words name exactly
// ("read /home/me/notes.txt", "file:///home/me/docs/"). A lone "/" names
// nothing ("user alice / X"); the whole file system is named only as
// file:/// itself.
func namedPaths(words []string) []string {
	var out []string
	for _, w := range words {
		for _, m := range pathToken().FindAllStringSubmatch(w, -1) {
			tok := strings.TrimRight(m[1], ".!?:")
			p := tok
			switch {
			case strings.HasPrefix(tok, "file://"):
				u, err := url.Parse(tok)
				if err != nil || (u.Host != "" && u.Host != "localhost") {
					continue
				}
				p = u.Path
			case strings.HasPrefix(tok, "~/"):
				home, err := os.UserHomeDir()
				if err != nil {
					continue
				}
				p = filepath.Join(home, tok[2:])
			case len(tok) < 2:
				continue
			}
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// secretForms are the forms a secret may be disguised in to pass a check
// on the plain text: reversed, base64 (standard and URL, with and without
// padding), hex, %-encoded.
func secretForms(s string) []string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	b := []byte(s)
	return []string{s, string(r), base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b), hex.EncodeToString(b),
		url.QueryEscape(s), url.PathEscape(s)}
}

// encodedWord is a run of characters that may be base64 or hex.
var encodedWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9+/_=-]{4,}`) })

// decodedForms are text and what it decodes to (each base64 or hex word, the
// %-decoded text), so that a secret encoded inside it is found.
func decodedForms(text string) []string {
	out := []string{text}
	if d, err := url.QueryUnescape(text); err == nil && d != text {
		out = append(out, d)
	}
	for _, w := range encodedWord().FindAllString(text, -1) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if d, err := enc.DecodeString(w); err == nil {
				out = append(out, string(d))
			}
		}
		if d, err := hex.DecodeString(w); err == nil {
			out = append(out, string(d))
		}
	}
	return out
}
