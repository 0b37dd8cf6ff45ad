// Package spelling checks the words of a manuscript against Debian's hunspell
// dictionaries (hunspell-ru, hunspell-en-us in /usr/share/hunspell) through
// libhunspell: the window underlines the words on screen it does not know (WebKitGTK's
// own spell checking stays off, see app/screenreader_gtk.go), and it lists them for
// a screen reader, each with where it first occurs.
package spelling

/*
#cgo pkg-config: hunspell
#include <stdlib.h>
#include <hunspell/hunspell.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Dir is where Debian's hunspell dictionaries are.
const Dir = "/usr/share/hunspell"

// Languages are the dictionaries the window checks with, in order.
var Languages = []string{"ru_RU", "en_US"}

// Checker holds loaded dictionaries; a word is right if any of them knows it.
// It is safe for concurrent use.
type Checker struct {
	mu    sync.Mutex
	langs []string
	h     []*C.Hunhandle
	known map[string]bool
}

// Available lists the languages of langs whose dictionary is installed in dir.
func Available(dir string, langs []string) []string {
	var out []string
	for _, l := range langs {
		if _, err := os.Stat(filepath.Join(dir, l+".dic")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, l+".aff")); err == nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// New loads the dictionaries of langs from dir (all must be UTF-8 ones, as
// Debian's are); it fails, saying which are missing, if none is installed.
func New(dir string, langs []string) (*Checker, error) {
	have := Available(dir, langs)
	if len(have) == 0 {
		return nil, fmt.Errorf("no spelling dictionary for %s in %s (Debian: apt-get install hunspell-ru hunspell-en-us)", strings.Join(langs, ", "), dir)
	}
	c := &Checker{langs: have, known: map[string]bool{}}
	for _, l := range have {
		aff := C.CString(filepath.Join(dir, l+".aff"))
		dic := C.CString(filepath.Join(dir, l+".dic"))
		h := C.Hunspell_create(aff, dic)
		C.free(unsafe.Pointer(aff))
		C.free(unsafe.Pointer(dic))
		if h == nil {
			c.Close()
			return nil, fmt.Errorf("cannot load the %s dictionary from %s", l, dir)
		}
		if enc := C.GoString(C.Hunspell_get_dic_encoding(h)); !strings.EqualFold(enc, "UTF-8") {
			C.Hunspell_destroy(h)
			c.Close()
			return nil, fmt.Errorf("the %s dictionary is in %s; only UTF-8 dictionaries are supported", l, enc)
		}
		c.h = append(c.h, h)
	}
	return c, nil
}

// Languages are the dictionaries loaded.
func (c *Checker) Languages() []string { return c.langs }

// Close frees the dictionaries.
func (c *Checker) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.h {
		C.Hunspell_destroy(h)
	}
	c.h = nil
}

func (c *Checker) correct(word string) (bool, error) {
	if c.h == nil {
		return false, errors.New("the spelling checker is closed")
	}
	if ok, seen := c.known[word]; seen {
		return ok, nil
	}
	w := C.CString(word)
	defer C.free(unsafe.Pointer(w))
	ok := false
	for _, h := range c.h {
		if C.Hunspell_spell(h, w) != 0 {
			ok = true
			break
		}
	}
	if len(c.known) > 200_000 {
		c.known = map[string]bool{}
	}
	c.known[word] = ok
	return ok, nil
}

// Word is a misspelt word: its first occurrence (byte offsets of the text)
// and how often it occurs.
type Word struct {
	Word  string
	From  int
	To    int
	Count int
}

// Misspelt lists the words of text no dictionary knows, in the order of
// their first occurrence, at most limit of them (0: no limit). Words with
// digits, Markdown link targets and HTML entities are not words of prose and
// are skipped, as are single letters.
func (c *Checker) Misspelt(text string, limit int) ([]Word, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Word
	at := map[string]int{}
	var err error
	eachWord(text, func(w string, from int) bool {
		if k, seen := at[w]; seen {
			if k >= 0 {
				out[k].Count++
			}
			return true
		}
		var ok bool
		if ok, err = c.correct(w); err != nil {
			return false
		}
		if ok {
			at[w] = -1
			return true
		}
		if limit > 0 && len(out) >= limit {
			at[w] = -1
			return true
		}
		at[w] = len(out)
		out = append(out, Word{Word: w, From: from, To: from + len(w), Count: 1})
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out, err
}

// Every lists each place in text where a word no dictionary knows occurs, in
// order (Count 1 each), at most limit of them (0: no limit): what the window
// underlines in the lines on screen.
func (c *Checker) Every(text string, limit int) ([]Word, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Word
	var err error
	eachWord(text, func(w string, from int) bool {
		var ok bool
		if ok, err = c.correct(w); err != nil {
			return false
		}
		if !ok {
			out = append(out, Word{Word: w, From: from, To: from + len(w), Count: 1})
		}
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// eachWord calls fn with every word of text (letters, with inner apostrophes
// and hyphens) and its byte offset, until fn returns false.
func eachWord(text string, fn func(w string, from int) bool) {
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) {
			// Skip what is not prose: an entity (&#234;), a link's target.
			switch {
			case r == '&':
				if j := strings.IndexByte(text[i:min(len(text), i+12)], ';'); j > 0 {
					// The rest of a word cut by the entity (G&#234;nes) is no word.
					i += j + 1
					for i < len(text) {
						r, size := utf8.DecodeRuneInString(text[i:])
						if !unicode.IsLetter(r) {
							break
						}
						i += size
					}
					continue
				}
			case r == ']' && strings.HasPrefix(text[i:], "]("):
				if j := strings.IndexByte(text[i:], ')'); j > 0 {
					i += j + 1
					continue
				}
			}
			i += size
			continue
		}
		start, digits := i, false
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) {
				j += size
				continue
			}
			if unicode.IsDigit(r) || r == '_' {
				digits = true
				j += size
				continue
			}
			// An apostrophe or hyphen between letters belongs to the word.
			if r == '\'' || r == '’' || r == '-' {
				if n, _ := utf8.DecodeRuneInString(text[min(len(text), j+size):]); unicode.IsLetter(n) {
					j += size
					continue
				}
			}
			break
		}
		w := text[start:j]
		i = j
		if digits || utf8.RuneCountInString(w) < 2 {
			continue
		}
		if !fn(w, start) {
			return
		}
	}
}
