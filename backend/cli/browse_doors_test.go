package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/browser/browsertest"
	"github.com/waymark/waymark/backend/desktop"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
)

// startBinaryListener runs the real `waymark browse --headless start`
// process and listens to it as startListener does to the loop.
func startBinaryListener(t *testing.T, bin, start string) *listener {
	t.Helper()
	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	l := &listener{t: t, in: w, done: make(chan error, 1)}
	cmd := exec.CommandContext(ctx, bin, "browse", "--headless", "--db", filepath.Join(home, "w.db"), start)
	cmd.Env = append(os.Environ(), "WAYMARK_MODEL_URL=", "WAYMARK_BROWSER_URL=", "HOME="+home, "XDG_DATA_HOME="+home, "XDG_CACHE_HOME="+home)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, l, l
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { l.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = w.Close()
		<-l.done
		cancel()
		t.Logf("what the terminal said:\n%s", l.log.String())
	})
	l.next()
	return l
}

// windowApp is the window's services (what its Browser workspace calls)
// with a headless browser of their own.
func windowApp(t *testing.T) *desktop.App {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, sample.Manuscript, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	ss := browser.NewSessions(browser.Options{Headless: true, ScreenshotDir: filepath.Join(dir, "shots"), DownloadDir: filepath.Join(dir, "dl")})
	t.Cleanup(func() { _ = ss.Close() })
	w := waymark.New(waymark.Config{WS: ws, Model: author.Builtin{}, Browser: ss})
	return desktop.New(desktop.Config{Waymark: w, NewBrowser: func(desktop.Settings) *browser.Sessions { return ss }})
}

// windowHeard is what the Browser workspace shows and says for a command:
// its say line, then its result (Browser.svelte), or the error it shows.
func windowHeard(a *desktop.App, cmd string) string {
	v, err := a.BrowserCommand(cmd)
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(strings.Join(nonEmpty(v.Say, v.Result), "\n"))
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

// The window's Browser workspace and the terminal (the real `waymark
// browse` process) say the same thing for the same command (issue 23,
// point 9), in both languages, answers and errors alike; and a Russian
// command's answer, errors included, has no English words of Waymark's
// own (point 6: the old code said seven of these errors as "Не получилось: "
// and the English text).
func TestWindowAndTerminalSayTheSame(t *testing.T) {
	sites, err := browsertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sites.Close()
	bin := buildCLI(t)
	term := startBinaryListener(t, bin, sites.URL("/guide"))
	win := windowApp(t)
	if _, err := win.BrowserCommand("go to " + sites.URL("/guide")); err != nil {
		t.Fatal(err)
	}
	var selectN string
	number := func(found string) string {
		if m := regexp.MustCompile(`(?m)^(\d+)\. [^\n]*Language of the guide`).FindStringSubmatch(found); m != nil {
			return m[1]
		}
		t.Fatalf("find named no select field:\n%s", found)
		return ""
	}
	missing := "/no/such/folder/отчёт.pdf"
	script := []func() string{
		func() string { return "список" },
		func() string { return "ещё" },
		func() string { return "нажми 500" },
		func() string { return "найди Language" },
		func() string { return "выбери " + selectN + " клингонский" },
		func() string { return "введи 1 привет" },
		func() string { return "загрузи " + selectN + " " + missing },
		func() string { return "загрузи " + selectN + " relative.pdf" },
		func() string { return "открой " + selectN + " в новой вкладке" },
		func() string { return "вкладка 9" },
		func() string { return "закрой вкладку" },
		func() string { return "перейди на ftp://example.org" },
		func() string { return "читай с заголовка 99" },
		func() string { return "прочитай страницу" },
		func() string { return "select " + selectN + " Klingon" },
		func() string { return "click 500" },
		func() string { return "tab 9" },
		func() string { return "read from heading 99" },
		func() string { return "list" },
	}
	russian := 0
	for _, next := range script {
		cmd := next()
		tw, ww := term.say(cmd), windowHeard(win, cmd)
		if cmd == "найди Language" {
			selectN = number(tw)
		}
		if tw != ww {
			t.Errorf("%q: the terminal and the window differ\nterminal:\n%s\nwindow:\n%s", cmd, tw, ww)
		}
		if regexp.MustCompile(`\p{Cyrillic}`).MatchString(cmd) {
			russian++
			own := ownWords(tw)
			if w := englishWords.FindString(own); w != "" || strings.Contains(tw, "Не получилось: ") {
				t.Errorf("%q is answered with English words of Waymark's own (%q):\n%s", cmd, w, tw)
			}
			// An error's own words: the page's (names, options and titles
			// in quotes) aside, no English at all, roles included.
			var errs []string
			for _, line := range strings.Split(tw, "\n") {
				if strings.HasPrefix(line, "Ошибка: ") || strings.HasPrefix(line, "Это не команда") {
					errs = append(errs, line)
				}
			}
			mine := regexp.MustCompile(`«[^»]*»|“[^”]*”`).ReplaceAllString(strings.Join(errs, "\n"), "")
			if regexp.MustCompile(`(?i)\b(?:is|the|not|no|of|and|was|were|give|use|list|only|cannot|could|say)\b`).MatchString(mine) {
				t.Errorf("%q is answered partly in English:\n%s", cmd, tw)
			}
		}
	}
	t.Logf("%d commands (%d Russian) said the same in both doors", len(script), russian)
}
