// Package wordforms gives the inflected forms of a Russian word — the six
// cases and two numbers of a name («Андрей»: Андрея, Андрею, Андреем, Андрее)
// — from Hunspell's Russian affix rules and word list (Debian's hunspell-ru,
// the dictionary spelling already uses), read here in Go: a word is analysed
// back to its dictionary entry through the suffix rules, and the entry's flags
// generate every form.
//
// Surnames are mostly absent from the dictionary, and where one is there it is
// a town («Ростов»: Ростовом, not the surname's Ростовым). So two families are
// added as rules of the same kind (surnames.aff, in Hunspell's own syntax):
// the mixed declension of -ов/-ев/-ин/-ын (Долохов, Долохова, Долоховым,
// Долоховы) and the adjectival one of -ский/-цкий/-ой (Болконский,
// Болконского, Болконская). A word the dictionary does not know takes the
// flags of the capitalised dictionary words that end like it (Соня like Таня,
// Анатоль like Павель), and is kept only if those rules give back the word.
//
// textmatch uses it through its Lexicon interface: forms are looked up for
// the phrase's words once, when a query is compiled, and the scan then checks
// each candidate word against that set.
package wordforms

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/textmatch"
)

// Dir is where Debian installs the hunspell dictionaries.
const Dir = "/usr/share/hunspell"

//go:embed surnames.aff
var surnamesAff string

// affix is one suffix rule: strip from the end of the entry, add, when the
// entry ends as cond says.
type affix struct {
	flag       string
	strip, add string
	cond       []charClass
}

// charClass is one position of a Hunspell condition: a set of runes, or its
// complement, or any rune.
type charClass struct {
	set string
	neg bool
	any bool
}

func (c charClass) match(r rune) bool {
	if c.any {
		return true
	}
	return strings.ContainsRune(c.set, r) != c.neg
}

// entry is a dictionary word with its flags.
type entry struct {
	flags   string
	capital bool
}

// Dictionary is one language's affix rules and word list.
type Dictionary struct {
	rules   map[string][]affix // by flag
	all     []affix
	words   map[string][]entry // normalised word → entries
	endings map[string]map[string]int
}

// Load reads a Hunspell dictionary (NAME.aff and NAME.dic in dir) and adds
// the surname rules.
func Load(dir, name string) (*Dictionary, error) {
	d := &Dictionary{rules: map[string][]affix{}, words: map[string][]entry{}, endings: map[string]map[string]int{}}
	aff, err := os.ReadFile(filepath.Join(dir, name+".aff"))
	if err != nil {
		return nil, fmt.Errorf("word forms need the %s dictionary (Debian: apt-get install hunspell-ru): %w", name, err)
	}
	if err := d.parseAff(string(aff)); err != nil {
		return nil, fmt.Errorf("%s.aff: %w", name, err)
	}
	if err := d.parseAff(surnamesAff); err != nil {
		return nil, fmt.Errorf("surnames.aff: %w", err)
	}
	f, err := os.Open(filepath.Join(dir, name+".dic"))
	if err != nil {
		return nil, fmt.Errorf("word forms need the %s dictionary (Debian: apt-get install hunspell-ru): %w", name, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first {
			first = false
			if n, err := strconv.Atoi(line); err == nil {
				// The entry count: the map is made that large at once
				// (growing it entry by entry was a third of the load).
				if n > 0 && n < 1<<22 {
					d.words = make(map[string][]entry, n)
				}
				continue
			}
		}
		if line == "" {
			continue
		}
		word, flags, _ := strings.Cut(line, "/")
		if i := strings.IndexAny(flags, " \t"); i >= 0 {
			flags = flags[:i]
		}
		r, _ := utf8.DecodeRuneInString(word)
		e := entry{flags: flags, capital: unicode.IsUpper(r)}
		w := norm(word)
		d.words[w] = append(d.words[w], e)
		if e.capital && flags != "" {
			for n := 2; n <= 4; n++ {
				if end, ok := ending(w, n); ok {
					m := d.endings[end]
					if m == nil {
						m = map[string]int{}
						d.endings[end] = m
					}
					m[flags]++
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s.dic: %w", name, err)
	}
	return d, nil
}

// parseAff reads the SFX rules of an .aff text.
func (d *Dictionary) parseAff(text string) error {
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[0] != "SFX" {
			continue
		}
		strip, add := f[2], f[3]
		if strip == "0" {
			strip = ""
		}
		if add == "0" {
			add = ""
		}
		if i := strings.IndexByte(add, '/'); i >= 0 {
			add = add[:i] // continuation flags: not used by the Russian rules
		}
		cond, err := parseCond(f[4])
		if err != nil {
			return fmt.Errorf("line %d: %w", n+1, err)
		}
		a := affix{flag: f[1], strip: norm(strip), add: norm(add), cond: cond}
		d.rules[a.flag] = append(d.rules[a.flag], a)
		d.all = append(d.all, a)
	}
	return nil
}

func parseCond(s string) ([]charClass, error) {
	if s == "." {
		return nil, nil
	}
	var out []charClass
	rs := []rune(norm(s))
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '.':
			out = append(out, charClass{any: true})
		case '[':
			j := i + 1
			c := charClass{}
			if j < len(rs) && rs[j] == '^' {
				c.neg = true
				j++
			}
			k := j
			for k < len(rs) && rs[k] != ']' {
				k++
			}
			if k >= len(rs) {
				return nil, fmt.Errorf("condition %q has an unclosed [", s)
			}
			c.set = string(rs[j:k])
			out = append(out, c)
			i = k
		default:
			out = append(out, charClass{set: string(rs[i])})
		}
	}
	return out, nil
}

// norm is how words are compared: lower case, ё as е (as textmatch does).
func norm(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "ё", "е")
}

func ending(w string, n int) (string, bool) {
	rs := []rune(w)
	if len(rs) <= n {
		return "", false
	}
	return string(rs[len(rs)-n:]), true
}

// condOK tells whether base ends as the rule's condition says.
func (a affix) condOK(base string) bool {
	rs := []rune(base)
	if len(a.cond) > len(rs) {
		return false
	}
	off := len(rs) - len(a.cond)
	for i, c := range a.cond {
		if !c.match(rs[off+i]) {
			return false
		}
	}
	return true
}

// apply makes the form of base under a, or "" when a does not apply.
func (a affix) apply(base string) string {
	if !strings.HasSuffix(base, a.strip) || !a.condOK(base) {
		return ""
	}
	out := base[:len(base)-len(a.strip)] + a.add
	if utf8.RuneCountInString(out) < 2 {
		return ""
	}
	return out
}

// generate lists base and every form its flags make.
func (d *Dictionary) generate(base, flags string) []string {
	out := []string{base}
	for _, fl := range flags {
		for _, a := range d.rules[string(fl)] {
			if f := a.apply(base); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// lemma is a dictionary entry (or a guessed one) a word is a form of.
type lemma struct {
	base, flags string
	score       int // how sure: 10 a dictionary entry, else the length of the shared ending
}

// Forms returns the inflected forms of w (a normalised word: lower case, ё
// as е): the forms of every entry w is a form of, w included. A capitalised
// w (a name) also gets the surname declensions when it ends like a surname.
// It returns nil for a word it knows nothing about.
func (d *Dictionary) Forms(w string, capital bool) []string {
	return d.forms(w, capital, true)
}

// forms is Forms; without family, the dictionary's and the rules' forms
// only (not the family plurals Forms adds).
func (d *Dictionary) forms(w string, capital, family bool) []string {
	if d == nil {
		return nil
	}
	w = norm(w)
	if !cyrillic(w) || utf8.RuneCountInString(w) < 3 {
		return nil
	}
	ls := d.entriesOf(w, capital)
	if capital {
		ls = append(ls, d.surnamesOf(w)...)
	}
	if len(ls) == 0 && capital {
		ls = d.guess(w)
	}
	if len(ls) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(fs []string) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	for _, l := range ls {
		add(d.generate(l.base, l.flags))
		if capital && family {
			// A family in the plural is a form of its name: Берги, Бергов,
			// Бергам (the dictionary's names and the analogy give only the
			// singular of a name ending in a consonant).
			add(familyPlural(l.base))
		}
	}
	if !seen[w] {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// entriesOf is the dictionary's entries w is a form of: w is an entry, or a
// rule makes w from an entry (a capitalised w: of the entries written with
// a capital).
func (d *Dictionary) entriesOf(w string, capital bool) []lemma {
	var ls []lemma
	for _, e := range d.words[w] {
		if e.capital == capital || !capital {
			ls = append(ls, lemma{w, e.flags, 10})
		}
	}
	for _, a := range d.all {
		if !strings.HasSuffix(w, a.add) {
			continue
		}
		base := w[:len(w)-len(a.add)] + a.strip
		if base == w || !a.condOK(base) {
			continue
		}
		for _, e := range d.words[base] {
			if strings.Contains(e.flags, a.flag) && (e.capital == capital || !capital) {
				ls = append(ls, lemma{base, e.flags, 10})
			}
		}
	}
	return ls
}

// surnamesOf is the surnames a name w is a form of, by the surname rules.
func (d *Dictionary) surnamesOf(w string) []lemma {
	var ls []lemma
	for _, a := range d.rules[surnameFlags] {
		if !strings.HasSuffix(w, a.add) {
			continue
		}
		base := w[:len(w)-len(a.add)] + a.strip
		if a.condOK(base) && surnameBase(base) {
			ls = append(ls, lemma{base, surnameFlags, 9})
		}
	}
	if surnameBase(w) {
		ls = append(ls, lemma{w, surnameFlags, 9})
	}
	return ls
}

// familyPlural is the plural of a name ending in a consonant, -й or -ь (the
// Бергs, the Мюратs), from its declension type (decline.go); nothing for
// the other types.
func familyPlural(base string) []string {
	p := paradigmOf(base, true)
	if p == nil {
		return nil
	}
	switch p.class {
	case "согл", "й", "ь":
	default:
		return nil
	}
	var out []string
	for _, s := range []string{"Nom", "Gen", "Dat", "Ins", "Prep"} {
		out = append(out, p.forms[s]...)
	}
	return out
}

// surnameFlags names the surname rules of surnames.aff.
const surnameFlags = "Ъ"

// surnameBase: a masculine surname's stem («Долохов», «Курагин», «Болконский»).
func surnameBase(w string) bool {
	for _, s := range []string{"ов", "ев", "ин", "ын", "ский", "цкий", "ской", "цкой"} {
		if strings.HasSuffix(w, s) && utf8.RuneCountInString(w) > utf8.RuneCountInString(s)+1 {
			return true
		}
	}
	return false
}

// guess finds the entries of a name the dictionary lacks by analogy: the
// flags most common among the capitalised words that end as the candidate
// base does (the longest shared ending wins), kept when they give back w.
func (d *Dictionary) guess(w string) []lemma {
	bases := []string{w}
	for _, a := range d.all {
		if a.add != "" && strings.HasSuffix(w, a.add) {
			b := w[:len(w)-len(a.add)] + a.strip
			if b != w && utf8.RuneCountInString(b) >= 3 {
				bases = append(bases, b)
			}
		}
	}
	var best []lemma
	bestScore := 0
	seen := map[string]bool{}
	for _, b := range bases {
		if seen[b] {
			continue
		}
		seen[b] = true
		for n := 4; n >= 2; n-- {
			end, ok := ending(b, n)
			if !ok {
				continue
			}
			m := d.endings[end]
			if len(m) == 0 {
				continue
			}
			flags, top := "", 0
			for f, c := range m {
				if c > top || c == top && f < flags {
					flags, top = f, c
				}
			}
			gives := false
			for _, f := range d.generate(b, flags) {
				gives = gives || f == w
			}
			if gives {
				if n > bestScore {
					best, bestScore = nil, n
				}
				if n == bestScore {
					best = append(best, lemma{b, flags, n})
				}
			}
			break
		}
	}
	return best
}

func cyrillic(w string) bool {
	for _, r := range w {
		if !(r >= 'а' && r <= 'я' || r == '-') {
			return false
		}
	}
	return true
}

// Russian loads the Russian dictionary once per process (about 0.2 s) and
// returns it, or the error that says what is missing. The dictionary is
// read-only once loaded, so it is shared.
func Russian() (*Dictionary, error) {
	ruOnce.Do(func() {
		ruDict, ruErr = Load(Dir, "ru_RU")
		ruDone.Store(true)
	})
	return ruDict, ruErr
}

var (
	ruOnce sync.Once
	ruDone atomic.Bool
	ruDict *Dictionary
	ruErr  error
)

// Default is the Russian dictionary, or nil when hunspell-ru is not
// installed (word forms then go by stems). Its Forms is safe on nil.
func Default() *Dictionary {
	d, _ := Russian()
	return d
}

// Options are the matcher's options for a search with (forms) or without
// word forms: with forms, the Russian dictionary's, when it is installed.
// The dictionary is read only when a Russian word is looked up in it, so a
// search for English words (a CLI call on an English book) never pays for
// reading it.
func Options(forms bool) textmatch.Options {
	if !forms {
		return textmatch.Options{}
	}
	if installed() {
		return textmatch.Options{Forms: true, Lexicon: russianOnDemand{}}
	}
	return textmatch.Options{Forms: true}
}

// installed tells, without reading it, whether the Russian dictionary is there
// (or was read already).
func installed() bool {
	if ruDone.Load() {
		return ruDict != nil
	}
	_, err := os.Stat(filepath.Join(Dir, "ru_RU.dic"))
	return err == nil
}

// russianOnDemand is the Russian dictionary as a textmatch.Lexicon, read
// the first time it is asked about a Russian word.
type russianOnDemand struct{}

// Forms gives w's forms from the forms cache when an earlier process looked
// w up with the same dictionary, else from the dictionary (and keeps them in
// the cache): a CLI call searching for a name asked before reads no
// dictionary.
func (russianOnDemand) Forms(w string, capital bool) []string {
	n := norm(w)
	if !cyrillic(n) || utf8.RuneCountInString(n) < 3 {
		return nil
	}
	if !ruDone.Load() {
		if fs, ok := cachedForms(n, capital); ok {
			return fs
		}
	}
	fs := Default().Forms(n, capital)
	keepForms(n, capital, fs)
	return fs
}

// The forms cache: one line per word looked up, "1 word form form…" (1: asked
// with a capital), in a file named after the dictionary's size and time and
// the surname rules, so that another dictionary starts another file.
const maxCacheSize = 4 << 20

// formsVersion names how Forms makes its lists (part of the cache file's
// name): a change to Forms starts a new cache.
const formsVersion = "2: family plurals"

var formsCache struct {
	once  sync.Once
	path  string
	mu    sync.Mutex
	forms map[string][]string
}

func cacheKey(n string, capital bool) string {
	if capital {
		return "1 " + n
	}
	return "0 " + n
}

// loadFormsCache finds the cache file of the installed dictionary and reads
// it; without a cache folder there is no cache.
func loadFormsCache() {
	c := &formsCache
	c.forms = map[string][]string{}
	dir, err := os.UserCacheDir()
	if err != nil {
		return
	}
	h := sha256.New()
	for _, name := range []string{"ru_RU.aff", "ru_RU.dic"} {
		fi, err := os.Stat(filepath.Join(Dir, name))
		if err != nil {
			return
		}
		fmt.Fprintf(h, "%s %d %d\n", name, fi.Size(), fi.ModTime().UnixNano())
	}
	h.Write([]byte(surnamesAff))
	h.Write([]byte(formsVersion))
	c.path = filepath.Join(dir, "waymark", fmt.Sprintf("wordforms-ru-%x.txt", h.Sum(nil)[:8]))
	b, err := os.ReadFile(c.path)
	if err != nil || len(b) > maxCacheSize {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != "0" && f[0] != "1") || !strings.HasSuffix(line, " .") {
			continue // a line cut short by a killed process, or not ours
		}
		c.forms[f[0]+" "+f[1]] = f[2 : len(f)-1]
	}
}

func cachedForms(n string, capital bool) ([]string, bool) {
	c := &formsCache
	c.once.Do(loadFormsCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	fs, ok := c.forms[cacheKey(n, capital)]
	if ok && len(fs) == 0 {
		return nil, true
	}
	return fs, ok
}

// keepForms adds a word's forms to the cache file (best effort: a cache that
// cannot be written is only slower).
func keepForms(n string, capital bool, fs []string) {
	c := &formsCache
	c.once.Do(loadFormsCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey(n, capital)
	if _, ok := c.forms[k]; ok || c.path == "" {
		return
	}
	c.forms[k] = fs
	if fi, err := os.Stat(c.path); err == nil && fi.Size() > maxCacheSize {
		return
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	line := k
	if len(fs) > 0 {
		line += " " + strings.Join(fs, " ")
	}
	_, _ = f.WriteString(line + " .\n") // one write: lines of two processes never interleave
}

// Lemmas returns the dictionary forms (nominative singular for a name) that
// w is a form of: the entries the dictionary has, else the bases the
// surname rules or the analogy give. Nil when it knows none.
func (d *Dictionary) Lemmas(w string, capital bool) []string {
	if d == nil {
		return nil
	}
	w = norm(w)
	if !cyrillic(w) || utf8.RuneCountInString(w) < 3 {
		return nil
	}
	var out []string
	add := func(b string) {
		for _, x := range out {
			if x == b {
				return
			}
		}
		out = append(out, b)
	}
	for _, e := range d.words[w] {
		if e.capital == capital || !capital {
			add(w)
		}
	}
	for _, a := range d.all {
		if !strings.HasSuffix(w, a.add) {
			continue
		}
		base := w[:len(w)-len(a.add)] + a.strip
		if base == w || !a.condOK(base) {
			continue
		}
		if a.flag == surnameFlags {
			if capital && surnameBase(base) {
				add(base)
			}
			continue
		}
		for _, e := range d.words[base] {
			if strings.Contains(e.flags, a.flag) && (e.capital == capital || !capital) {
				add(base)
			}
		}
	}
	if capital && surnameBase(w) {
		add(w)
	}
	if len(out) == 0 && capital {
		for _, l := range d.guess(w) {
			add(l.base)
		}
	}
	return out
}
