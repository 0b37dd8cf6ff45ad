package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// benchPages are the pages of the browser bench, served on loopback.
func benchPages() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body>%s</body></html>`, title, body)
	}
	var links strings.Builder
	links.WriteString("<main><h1>Archive</h1><ul>")
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&links, `<li><a href="/item/%d">Article number %d</a></li>`, i, i)
	}
	links.WriteString("</ul></main>")
	mux.HandleFunc("/links", func(w http.ResponseWriter, r *http.Request) { page(w, "Many links", links.String()) })
	mux.HandleFunc("/counter", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Counter", `<main><button onclick="this.dataset.n=(+this.dataset.n||0)+1; document.getElementById('o').textContent=this.dataset.n">Count</button><p id="o">0</p></main>`)
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Encyclopedia", `<main><h1>Encyclopedia</h1><form action="/results" role="search"><label for="q">Search</label> <input id="q" name="q"> <button>Go</button></form></main>`)
	})
	mux.HandleFunc("/results", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		time.Sleep(80 * time.Millisecond) // a server that thinks
		page(w, "Results", `<main><h1>Results</h1><a href="/article?t=`+q+`">`+strings.ToUpper(q[:min(1, len(q))])+q[min(1, len(q)):]+` (article)</a></main>`)
	})
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Article: "+r.URL.Query().Get("t"), `<main><h1>`+r.URL.Query().Get("t")+`</h1><p>A city on the Volga.</p></main>`)
	})
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Library card", benchFormPage)
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			_ = r.ParseForm()
			page(w, "Welcome", `<main><h1>Welcome, `+r.PostForm.Get("u")+`</h1></main>`)
			return
		}
		page(w, "Sign in", `<main><form method="post"><label for="u">User</label> <input id="u" name="u"> <label for="p">Password</label> <input id="p" name="p" type="password"> <button>Sign in</button></form></main>`)
	})
	return mux
}

// benchFormPage is a small form page (a library card application: 12
// fields and buttons beside a few links), the page whose list issue 33
// point 14 compares with Playwright MCP's snapshot.
const benchFormPage = `<header><a href="/">Library</a> <a href="/hours">Opening hours</a></header>
<main><h1>Library card</h1><form action="/article" method="get">
<p><label for="n">Full name</label> <input id="n" name="t" required></p>
<p><label for="e">E-mail</label> <input id="e" name="e" type="email"></p>
<p><label for="b">Date of birth</label> <input id="b" name="b" type="date"></p>
<p><label for="c">Branch</label> <select id="c" name="c"><option>Central</option><option>North</option><option>Riverside</option></select></p>
<fieldset><legend>Card</legend><label><input type="radio" name="k" value="adult" checked> Adult</label> <label><input type="radio" name="k" value="child"> Child</label></fieldset>
<p><label for="m">Notes</label> <textarea id="m" name="m"></textarea></p>
<p><label><input type="checkbox" name="news"> Send me the newsletter</label></p>
<p><button type="reset">Clear</button> <button>Apply</button></p>
</form></main><footer><a href="/privacy">Privacy</a></footer>`

// benchScenario is a blind user's session by number commands, with the
// element to pick for each N found by its name in the last list.
type benchScenario struct {
	name  string
	start string
	steps []string // commands; "{Name}" is replaced by the number of the element called Name
	title string   // the page title that proves the goal was reached
}

var benchScenarios = []benchScenario{
	{"encyclopedia search", "/search", []string{"list", "type {Search} kazan", "press Enter", "list", "click {Kazan (article)}", "read page"}, "Article: kazan"},
	{"sign in", "/login", []string{"list", "type {User} anna", "type {Password} secret", "click {Sign in}", "read page"}, "Welcome"},
	{"counter", "/counter", []string{"list", "click {Count}", "click {Count}", "read page"}, "Counter"},
}

// runScenario runs one scenario through the registry, pausing pause between
// steps (0: the settle-waits of the tools alone), and reports the element
// actions done by number and whether the goal's page was reached.
func runScenario(ctx context.Context, reg *tools.Registry, base string, sc benchScenario, pause time.Duration) (byNumber int, ok bool, err error) {
	// The steps go as the terminal's commands do: parsed, then run by the
	// conversation that heard the list (its numbers, its stale check).
	b := new(web.Browsing)
	call := func(step web.BrowseStep) (map[string]any, error) {
		ans := b.Run(ctx, reg, step)
		if ans.Status != "ok" {
			return nil, fmt.Errorf("%s: %s", step.Tool, ans.Text)
		}
		var d map[string]any
		_ = json.Unmarshal(ans.Data, &d)
		return d, nil
	}
	nav, err := browser.NavigateRef.Call(ctx, reg, browser.NavigateArgs{URL: base + sc.start})
	if err != nil {
		return 0, false, err
	}
	if msg, failed := nav.Failed(); failed || nav.Data == nil {
		return 0, false, fmt.Errorf("browser_navigate: %s", msg)
	}
	title := nav.Data.Title
	var list map[string]any
	for _, cmd := range sc.steps {
		if pause > 0 {
			time.Sleep(pause)
		}
		if i := strings.Index(cmd, "{"); i >= 0 {
			j := strings.Index(cmd, "}")
			name := cmd[i+1 : j]
			n := 0
			items, _ := list["items"].([]any)
			for _, it := range items {
				if m := it.(map[string]any); m["name"] == name {
					n = int(m["number"].(float64))
				}
			}
			if n == 0 {
				return byNumber, false, fmt.Errorf("%s: no %q in the list", sc.name, name)
			}
			cmd = cmd[:i] + fmt.Sprint(n) + cmd[j+1:]
		}
		step, err := b.Parse(cmd)
		if err != nil {
			return byNumber, false, err
		}
		d, err := call(step)
		if err != nil {
			return byNumber, false, err
		}
		switch step.Tool {
		case "browser_list_interactives":
			list = d
		case "browser_overlay_act":
			byNumber++
		}
		if t, _ := d["title"].(string); t != "" {
			title = t
		}
	}
	return byNumber, title == sc.title, nil
}

// runBenchBrowser measures the browser against the browser issue's targets in
// one run: listing 5,000 links, a click round trip, the banner hook on a page
// without a banner, and the scenarios with settle-waits against the seed's
// fixed 4 s pause between steps.
func runBenchBrowser(ctx context.Context, runs int, stdout io.Writer) error {
	srv := httptest.NewServer(benchPages())
	defer srv.Close()
	proc, err := browser.StartBrowser(ctx, browser.Options{Headless: true})
	if err != nil {
		return err
	}
	defer proc.Close()
	opts := browser.Options{Headless: true, ControlURL: proc.ControlURL()}
	s, err := browser.Launch(ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark browser bench: headless %s, median of %d runs\n", browser.DefaultBin, runs)
	fmt.Fprintln(tw, "measure\tmedian\treference / ratio\ttarget\tresult")
	if _, err := s.Navigate(ctx, srv.URL+"/links"); err != nil {
		return err
	}
	var failed error
	list := median(runs, func() {
		// The last 50: a window past the first numbers the whole page (a
		// first window numbers only its prefix).
		if r, err := s.List(ctx, browser.ListOptions{Offset: 4950}); err != nil || r.Total < 5000 {
			failed = fmt.Errorf("list 5,000 links: %v", err)
		}
	})
	fmt.Fprintf(tw, "browser_list_interactives, 5,000 links\t%s\t\t≤ 150 ms\t%s\n", ms(list), verdict(list <= 150*time.Millisecond))
	if _, err := s.Navigate(ctx, srv.URL+"/counter"); err != nil {
		return err
	}
	if _, err := s.List(ctx, browser.ListOptions{}); err != nil {
		return err
	}
	act := median(runs*4, func() {
		if _, err := s.Act(ctx, browser.ActOptions{Index: 1, Action: "click"}); err != nil {
			failed = err
		}
	})
	fmt.Fprintf(tw, "browser_overlay_act click round trip\t%s\t\t≤ 60 ms\t%s\n", ms(act), verdict(act <= 60*time.Millisecond))
	hook := median(runs*4, func() {
		if _, err := s.CloseBanners(ctx); err != nil {
			failed = err
		}
	})
	fmt.Fprintf(tw, "banner hook, page without a banner\t%s\t\t≤ 50 ms\t%s\n", ms(hook), verdict(hook <= 50*time.Millisecond))
	if failed != nil {
		return failed
	}

	ss := browser.NewSessions(opts)
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	var settle, fixed time.Duration
	steps, byNumber := 0, 0
	for _, sc := range benchScenarios {
		steps += len(sc.steps)
		var ds []time.Duration
		for i := 0; i < runs; i++ {
			t0 := time.Now()
			n, ok, err := runScenario(ctx, reg, srv.URL, sc, 0)
			if err != nil || !ok {
				return fmt.Errorf("scenario %s with settle-waits: ok=%v %v", sc.name, ok, err)
			}
			ds = append(ds, time.Since(t0))
			byNumber = n
		}
		settle += mid(ds)
		t0 := time.Now()
		_, ok, err := runScenario(ctx, reg, srv.URL, sc, 4*time.Second)
		if err != nil || !ok {
			return fmt.Errorf("scenario %s with the fixed pause: ok=%v %v", sc.name, ok, err)
		}
		fixed += time.Since(t0)
		_ = byNumber
	}
	fmt.Fprintf(tw, "%d scenarios, %d steps: settle-waits\t%s\tfixed 4 s pause %s → %.3f×\tfaster than the pause\t%s\n",
		len(benchScenarios), steps, ms(settle), ms(fixed), float64(settle)/float64(fixed), verdict(settle < fixed))
	return tw.Flush()
}
