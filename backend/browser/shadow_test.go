package browser

import (
	"strings"
	"testing"
)

// Shadow-root fixtures: closed roots inside closed roots, open inside closed,
// closed inside open, and closed roots the parser attached from declarative
// shadow DOM (which no script ever sees).
func init() {
	extraPages["/shadow-nest.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Nested roots</title></head><body>
<button>Start</button>
<outer-box></outer-box>
<open-box></open-box>
<button>End</button>
<p id="log"></p>
<script>
const log = m => { document.getElementById('log').textContent = m; };
customElements.define('outer-box', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<button>Outer button</button><inner-box></inner-box><half-box></half-box>';
    r.querySelector('button').addEventListener('click', () => log('outer clicked'));
  }
});
customElements.define('inner-box', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<input placeholder="Inner field"><button>Inner button</button>';
    r.querySelector('button').addEventListener('click', () => log('inner clicked: ' + r.querySelector('input').value));
  }
});
// Open inside closed.
customElements.define('half-box', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const r = this.attachShadow({mode: 'open'});
    r.innerHTML = '<input placeholder="Half field"><button>Half button</button>';
    r.querySelector('button').addEventListener('click', () => log('half clicked: ' + r.querySelector('input').value));
  }
});
// Closed inside open.
customElements.define('open-box', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const r = this.attachShadow({mode: 'open'});
    r.innerHTML = '<closed-leaf></closed-leaf>';
  }
});
customElements.define('closed-leaf', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<input placeholder="Leaf field"><button>Leaf button</button>';
    r.querySelector('button').addEventListener('click', () => log('leaf clicked: ' + r.querySelector('input').value));
  }
});
</script>
</body></html>`
	extraPages["/shadow-decl.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Declarative</title></head><body>
<button>Before decl</button>
<x-decl><template shadowrootmode="closed"><input placeholder="Decl field"><button onclick="document.getElementById('log').textContent = 'decl clicked: ' + this.getRootNode().querySelector('input').value">Decl button</button></template></x-decl>
<x-plain>No root here</x-plain>
<button>After decl</button>
<p id="log"></p>
</body></html>`
}

// Elements inside open and closed shadow roots, nested either way and
// declared in HTML, are numbered at their host's place, typed into and
// clicked by number.
func TestShadowRoots(t *testing.T) {
	cases := []struct {
		name   string
		path   string
		order  []string // numbered in this order
		field  string
		text   string
		button string
		js     string // reads the outcome in the page
		want   string
	}{
		{"open roots, nested", "/shadow.html",
			[]string{"Light before", "Shadow button", "Deep field", "Light after"},
			"Deep field", "deep", "Shadow button",
			`() => document.getElementById('out').textContent + ' / ' + document.querySelector('x-panel').shadowRoot.querySelector('x-inner').shadowRoot.querySelector('input').value`,
			"shadow clicked / deep"},
		{"closed root", "/closed.html",
			[]string{"Light before", "Nickname", "Save nickname", "Open the tile", "Inside app"},
			"Nickname", "Lev", "Save nickname",
			`() => document.getElementById('out').textContent`, "saved Lev"},
		{"closed inside closed", "/shadow-nest.html",
			[]string{"Start", "Outer button", "Inner field", "Inner button", "Half field", "Half button", "Leaf field", "Leaf button", "End"},
			"Inner field", "in", "Inner button",
			`() => document.getElementById('log').textContent`, "inner clicked: in"},
		{"open inside closed", "/shadow-nest.html", nil,
			"Half field", "half", "Half button",
			`() => document.getElementById('log').textContent`, "half clicked: half"},
		{"closed inside open", "/shadow-nest.html", nil,
			"Leaf field", "leaf", "Leaf button",
			`() => document.getElementById('log').textContent`, "leaf clicked: leaf"},
		{"declarative closed root", "/shadow-decl.html",
			[]string{"Before decl", "Decl field", "Decl button", "After decl"},
			"Decl field", "declared", "Decl button",
			`() => document.getElementById('log').textContent`, "decl clicked: declared"},
	}
	s := newSession(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			open(t, s, tc.path)
			r := mustList(t, s, ListOptions{Limit: 100})
			last := 0
			for _, name := range tc.order {
				n := numberOf(t, r, name)
				if n <= last {
					t.Fatalf("%q out of document order: %s", name, names(r))
				}
				last = n
			}
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, tc.field), Action: "type", Text: tc.text}); err != nil {
				t.Fatalf("type into %q: %v", tc.field, err)
			}
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, tc.button), Action: "click"}); err != nil {
				t.Fatalf("click %q: %v", tc.button, err)
			}
			if got := evalText(t, s, tc.js); got != tc.want {
				t.Fatalf("page says %q, want %q", got, tc.want)
			}
		})
	}
}

// The marks of closed roots and listeners are plain data attributes on the
// host: nothing a screen reader announces is added.
func TestShadowMarksAreNotARIA(t *testing.T) {
	s := newSession(t)
	for _, path := range []string{"/shadow-nest.html", "/closed.html", "/shadow-decl.html"} {
		open(t, s, path)
		mustList(t, s, ListOptions{})
		got := evalText(t, s, `() => {
			const bad = [];
			for (const el of document.querySelectorAll('*')) {
				for (const a of el.getAttributeNames()) {
					if (a.startsWith('aria-') || a === 'role' || a === 'tabindex' || a === 'title' || a === 'alt') bad.push(el.tagName + '[' + a + ']');
				}
			}
			return bad.join(' ') || 'none';
		}`)
		if got != "none" {
			t.Errorf("%s: accessibility attributes on the page: %s", path, got)
		}
		hosts := evalText(t, s, `() => Array.from(document.querySelectorAll('[data-blind-closed-root]')).map(e => e.tagName.toLowerCase()).join(',') || 'none'`)
		if path == "/closed.html" && hosts != "secret-panel" {
			t.Errorf("%s: closed-root marks on %s", path, hosts)
		}
		if strings.Contains(hosts, "x-plain") {
			t.Errorf("%s: a host without a root was marked", path)
		}
	}
}
