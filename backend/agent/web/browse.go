package web

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/waymark/waymark/backend/agent"
)

// BrowseStep is one browser tool call a direct command maps to.
type BrowseStep struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// Say is the short progress line spoken or shown for the step.
	Say string `json:"say"`
}

// BrowseCommands is the help a listener hears for "help": the direct commands
// the built-in engine understands, a few to a line.
const BrowseCommands = `Number commands, in English or Russian:
list: the numbered elements, 50 at a time; more (or next, list more): the next 50; list 51: from number 51; list from here: from the place the page shows now.
click 5, type 3 hello, select 7 Kazan, press Enter, upload 2 /home/me/file.pdf, download 6.
read page: title, headings, the start of the text; read more: the next part; read from heading 3; read from start.
find search: which numbers have that word. scroll down, scroll up, scroll top, scroll bottom, scroll to 12.
back, forward, reload, go to example.org. tabs, tab 2, open 4 in new tab, close tab. show numbers, hide numbers. quit ends.
По-русски: список, ещё, список 51, список отсюда, нажми 5, введи 3 текст, выбери 7 Казань, клавиша ввод, прочитай страницу, читай дальше, читай с заголовка 3, найди поиск, прокрути вниз, назад, вперёд, вкладки, вкладка 2, закрой вкладку, перейди на адрес.`

var keyNames = map[string]string{
	"enter": "Enter", "ввод": "Enter", "энтер": "Enter", "tab": "Tab", "таб": "Tab", "escape": "Escape", "esc": "Escape", "эскейп": "Escape",
	"space": "Space", "пробел": "Space", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
	"вверх": "ArrowUp", "вниз": "ArrowDown", "влево": "ArrowLeft", "вправо": "ArrowRight", "backspace": "Backspace", "pagedown": "PageDown", "pageup": "PageUp",
	"home": "Home", "end": "End",
}

type browsePattern struct {
	re   *regexp.Regexp
	step func(m []string) (BrowseStep, error)
}

func num(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not an element number; numbers start at 1 (say \"list\" to see them)", s)
	}
	return n, nil
}

func actBy(action string) func(m []string) (BrowseStep, error) {
	return func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		args := map[string]any{"index": n, "action": action}
		say := fmt.Sprintf("Clicking %d.", n)
		if action != "click" {
			text := strings.TrimSpace(m[2])
			text = strings.Trim(text, `"«»“”`)
			if text == "" {
				return BrowseStep{}, fmt.Errorf("%s %d needs text after the number", action, n)
			}
			args["text"] = text
			say = fmt.Sprintf("Typing into %d.", n)
			if action == "select" {
				say = fmt.Sprintf("Choosing %q in %d.", text, n)
			}
		}
		return BrowseStep{Tool: "browser_overlay_act", Args: args, Say: say}, nil
	}
}

func fixed(tool, say string, args map[string]any) func(m []string) (BrowseStep, error) {
	return func([]string) (BrowseStep, error) {
		if args == nil {
			args = map[string]any{}
		}
		return BrowseStep{Tool: tool, Args: args, Say: say}, nil
	}
}

var browsePatterns = []browsePattern{
	{regexp.MustCompile(`(?i)^(?:list|numbers|список|перечисли|номера)$`), fixed("browser_list_interactives", "Listing the elements.", nil)},
	{regexp.MustCompile(`(?i)^(?:list|numbers|список|номера)\s+(?:from\s+|с\s+|от\s+)?(\d+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		return BrowseStep{Tool: "browser_list_interactives", Args: map[string]any{"offset": n - 1}, Say: fmt.Sprintf("Listing from number %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:list from here|list here|список отсюда|список с этого места|перечисли отсюда)$`), fixed("browser_list_interactives", "Listing from here.", map[string]any{"from_here": true})},
	{regexp.MustCompile(`(?i)^(?:read from (?:the )?(?:start|beginning|top)|read text|read the text|читай с начала|прочитай с начала|читай текст|прочитай текст)$`), fixed("browser_read", "Reading the text from the start.", map[string]any{"from": 0})},
	{regexp.MustCompile(`(?i)^(?:read (?:from )?heading|read from header|читай с заголовка|прочитай с заголовка|читай заголовок|прочитай заголовок)\s+(\d+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, fmt.Errorf("%q is not a heading number; headings count from 1 (say read page to hear them)", m[1])
		}
		return BrowseStep{Tool: "browser_read", Args: map[string]any{"heading": n}, Say: fmt.Sprintf("Reading from heading %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:tabs|list tabs|вкладки|список вкладок)$`), fixed("browser_tabs", "The tabs:", nil)},
	{regexp.MustCompile(`(?i)^(?:close tab|close this tab|закрой вкладку|закрыть вкладку)$`), fixed("browser_close_tab", "Closing this tab.", nil)},
	{regexp.MustCompile(`(?i)^(?:close tab|закрой вкладку)\s+(\d+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		return BrowseStep{Tool: "browser_close_tab", Args: map[string]any{"index": n}, Say: fmt.Sprintf("Closing tab %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:show numbers|show overlay|покажи номера)$`), fixed("browser_overlay_show", "Numbers shown.", nil)},
	{regexp.MustCompile(`(?i)^(?:hide numbers|hide overlay|скрой номера|спрячь номера)$`), fixed("browser_overlay_hide", "Numbers hidden.", nil)},
	{regexp.MustCompile(`(?i)^(?:click|press|нажми|кликни|щёлкни|щелкни)\s+(\d+)$`), actBy("click")},
	{regexp.MustCompile(`(?i)^(?:type|write|enter|введи|напиши|впиши)\s+(\d+)\s+(.+)$`), actBy("type")},
	{regexp.MustCompile(`(?i)^(?:select|choose|pick|выбери)\s+(\d+)\s+(.+)$`), actBy("select")},
	{regexp.MustCompile(`(?i)^(?:press|key|нажми|клавиша)\s+([a-zа-яё]+)$`), func(m []string) (BrowseStep, error) {
		k, ok := keyNames[strings.ToLower(m[1])]
		if !ok {
			if len([]rune(m[1])) == 1 {
				k = m[1]
			} else {
				return BrowseStep{}, fmt.Errorf("unknown key %q; keys: Enter, Tab, Escape, Space, Up, Down, Left, Right, Backspace, PageUp, PageDown, Home, End or one letter", m[1])
			}
		}
		return BrowseStep{Tool: "browser_press", Args: map[string]any{"key": k}, Say: "Pressing " + k + "."}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:scroll|прокрути|листай)\s+(down|up|top|bottom|вниз|вверх|наверх|в начало|в конец)$`), func(m []string) (BrowseStep, error) {
		switch strings.ToLower(m[1]) {
		case "down", "вниз":
			return BrowseStep{Tool: "browser_scroll", Args: map[string]any{"by_y": 600}, Say: "Scrolling down."}, nil
		case "up", "вверх":
			return BrowseStep{Tool: "browser_scroll", Args: map[string]any{"by_y": -600}, Say: "Scrolling up."}, nil
		case "top", "наверх", "в начало":
			return BrowseStep{Tool: "browser_scroll", Args: map[string]any{"to": "top"}, Say: "To the top."}, nil
		}
		return BrowseStep{Tool: "browser_scroll", Args: map[string]any{"to": "bottom"}, Say: "To the bottom."}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:scroll to|прокрути к|прокрути до)\s+(\d+)$`), func(m []string) (BrowseStep, error) {
		n, _ := strconv.Atoi(m[1])
		return BrowseStep{Tool: "browser_scroll", Args: map[string]any{"index": n}, Say: fmt.Sprintf("Scrolling to %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:back|go back|назад)$`), fixed("browser_back", "Going back.", nil)},
	{regexp.MustCompile(`(?i)^(?:forward|go forward|вперёд|вперед)$`), fixed("browser_forward", "Going forward.", nil)},
	{regexp.MustCompile(`(?i)^(?:reload|refresh|обнови|перезагрузи)$`), fixed("browser_reload", "Reloading.", nil)},
	{regexp.MustCompile(`(?i)^(?:read page|read|summary|прочитай страницу|прочитай|что на странице)$`), fixed("browser_extract", "Reading the page.", map[string]any{"mode": "summary"})},
	{regexp.MustCompile(`(?i)^(?:find|search for|найди)\s+(.+)$`), func(m []string) (BrowseStep, error) {
		t := strings.Trim(strings.TrimSpace(m[1]), `"«»“”`)
		return BrowseStep{Tool: "browser_find", Args: map[string]any{"text": t}, Say: fmt.Sprintf("Looking for %q.", t)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:open|открой)\s+(\d+)\s+(?:in (?:a )?new tab|в новой вкладке)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		return BrowseStep{Tool: "browser_open_in_new_tab", Args: map[string]any{"index": n}, Say: fmt.Sprintf("Opening %d in a new tab.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:download|save|скачай|сохрани)\s+(\d+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		return BrowseStep{Tool: "browser_click_and_wait_download", Args: map[string]any{"index": n}, Say: fmt.Sprintf("Downloading %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:upload|attach|загрузи|прикрепи|отправь файл)\s+(\d+)\s+(.+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		path := strings.Trim(strings.TrimSpace(m[2]), `"«»“”`)
		return BrowseStep{Tool: "browser_upload", Args: map[string]any{"index": n, "files": []string{path}}, Say: fmt.Sprintf("Giving the file to %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:tab|вкладка)\s+(\d+)$`), func(m []string) (BrowseStep, error) {
		n, err := num(m[1])
		if err != nil {
			return BrowseStep{}, err
		}
		return BrowseStep{Tool: "browser_switch_tab", Args: map[string]any{"index": n}, Say: fmt.Sprintf("Switching to tab %d.", n)}, nil
	}},
	{regexp.MustCompile(`(?i)^(?:go to|open|navigate to|перейди на|открой|зайди на)\s+(\S+)$`), func(m []string) (BrowseStep, error) {
		// The address goes as typed: the navigator picks the scheme (http first
		// on loopback, https first elsewhere) and tries the other when the
		// first cannot connect.
		return BrowseStep{Tool: "browser_navigate", Args: map[string]any{"url": m[1]}, Say: "Opening " + m[1] + "."}, nil
	}},
}

// NotCommandError is a line that is no direct command: one short line for the
// listener (a near command when it looks like a typo), and ErrNeedsModel
// underneath, so a model server can take it as a goal.
type NotCommandError struct {
	Line, Suggestion string
	// Usage is how the command the line starts with is said, when it starts
	// with one but the rest does not fit ("type 3" with no text).
	Usage string
}

func (e *NotCommandError) Error() string {
	if e.Usage != "" {
		return fmt.Sprintf("Not a command: %q. Say it like: %s. Say help for the commands.", e.Line, e.Usage)
	}
	if e.Suggestion != "" {
		return fmt.Sprintf("Not a command: %q. Did you mean %q? Say help for the commands.", e.Line, e.Suggestion)
	}
	return fmt.Sprintf("Not a command: %q. Goals in plain words need a model server (Settings); say help for the number commands.", e.Line)
}

func (e *NotCommandError) Unwrap() error { return agent.ErrNeedsModel }

// Browsing is the state of one number-browsing conversation (the terminal
// loop, the Browser workspace): where the last list and the last reading
// stopped, so "more", "list more", "read more" and "ещё" go on from there.
// Its methods are safe for concurrent use.
type Browsing struct {
	mu        sync.Mutex
	last      string // "list" or "read": what "more" continues
	listNext  int    // offset of the next list window
	listMore  bool
	listTotal int
	readURL   string
	readNext  int
	readMore  bool
	readTotal int
}

var (
	moreRe     = regexp.MustCompile(`(?i)^(?:more|next|go on|continue|ещё|еще|дальше|далее|продолжай)$`)
	listMoreRe = regexp.MustCompile(`(?i)^(?:list more|list next|more elements|next elements|список дальше|список ещё|список еще|ещё список|еще список|следующие)$`)
	readMoreRe = regexp.MustCompile(`(?i)^(?:read more|read on|read next|continue reading|keep reading|читай дальше|читать дальше|прочитай дальше|дальше читай|читай ещё|читай еще)$`)
	helpRe     = regexp.MustCompile(`(?i)^(?:help|commands|\?|помощь|команды|справка)$`)
)

// Parse maps a command to its step, going on from the remembered list or
// reading for "more" and its kin. "help" is a step with no tool: its Say is
// the help.
func (b *Browsing) Parse(cmd string) (BrowseStep, error) {
	c := strings.Join(strings.Fields(cmd), " ")
	c = strings.TrimRight(c, ".!")
	switch {
	case helpRe.MatchString(c):
		return BrowseStep{Say: BrowseCommands}, nil
	case listMoreRe.MatchString(c):
		return b.more("list"), nil
	case readMoreRe.MatchString(c):
		return b.more("read"), nil
	case moreRe.MatchString(c):
		b.mu.Lock()
		what := b.last
		b.mu.Unlock()
		if what == "" {
			what = "list"
		}
		return b.more(what), nil
	}
	for _, p := range browsePatterns {
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.step(m)
		}
	}
	e := &NotCommandError{Line: strings.TrimSpace(cmd), Suggestion: suggest(c)}
	if f := strings.Fields(strings.ToLower(c)); len(f) > 0 && e.Suggestion == "" {
		e.Usage = usage[f[0]]
	}
	return BrowseStep{}, e
}

// more is the step that goes on with the list or the reading.
func (b *Browsing) more(what string) BrowseStep {
	b.mu.Lock()
	defer b.mu.Unlock()
	if what == "read" {
		switch {
		case b.readURL == "":
			return BrowseStep{Tool: "browser_read", Args: map[string]any{"from": 0}, Say: "Reading the text from the start."}
		case !b.readMore:
			return BrowseStep{Say: fmt.Sprintf("That was the end of the text (%d characters). Say read from start, read from heading 3, or read page.", b.readTotal)}
		}
		return BrowseStep{Tool: "browser_read", Args: map[string]any{"from": b.readNext, "continue_url": b.readURL}, Say: "Reading on."}
	}
	switch {
	case b.listTotal == 0 && !b.listMore:
		return BrowseStep{Tool: "browser_list_interactives", Args: map[string]any{}, Say: "Listing the elements."}
	case !b.listMore:
		return BrowseStep{Say: fmt.Sprintf("That was the end of the list: %d elements in all. Say list to start again, or list and a number to start there.", b.listTotal)}
	}
	return BrowseStep{Tool: "browser_list_interactives", Args: map[string]any{"offset": b.listNext},
		Say: fmt.Sprintf("Listing from number %d.", b.listNext+1)}
}

// Observe remembers what a step's result says about the list and the
// reading; a step that leads to another page forgets both.
func (b *Browsing) Observe(step BrowseStep, res any) {
	raw, _ := json.Marshal(res)
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Total      int    `json:"total"`
			HasMore    bool   `json:"has_more"`
			NextOffset int    `json:"next_offset"`
			URL        string `json:"url"`
			Next       int    `json:"next"`
			MoreAt     int    `json:"more_at"`
			TextChars  int    `json:"text_chars"`
			Navigated  bool   `json:"navigated"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Status != "ok" {
		return
	}
	d := r.Data
	b.mu.Lock()
	defer b.mu.Unlock()
	switch step.Tool {
	case "browser_list_interactives":
		b.last, b.listTotal, b.listMore, b.listNext = "list", d.Total, d.HasMore, d.NextOffset
	case "browser_read":
		b.last, b.readURL, b.readTotal, b.readMore, b.readNext = "read", d.URL, d.Total, d.Next < d.Total, d.Next
	case "browser_extract":
		b.last, b.readURL, b.readTotal, b.readMore, b.readNext = "read", d.URL, d.TextChars, d.MoreAt > 0, d.MoreAt
	case "browser_navigate", "browser_back", "browser_forward", "browser_reload", "browser_switch_tab",
		"browser_open_in_new_tab", "browser_close_tab":
		b.forget()
	default:
		if d.Navigated {
			b.forget()
		}
	}
}

// usage says how a command is said, by its first word.
var usage = map[string]string{
	"list": "list, list 51, list from here", "click": "click 5", "type": "type 3 hello", "select": "select 7 Kazan",
	"press": "press Enter, press 5", "scroll": "scroll down, scroll up, scroll to 12", "read": "read page, read more, read from heading 3",
	"find": "find search", "open": "open 4 in new tab, or open example.org", "tab": "tab 2", "download": "download 6",
	"upload": "upload 2 /home/me/file.pdf", "go": "go to example.org", "close": "close tab, close tab 2",
	"список": "список, список 51, список отсюда", "нажми": "нажми 5", "введи": "введи 3 привет", "выбери": "выбери 7 Казань",
	"прокрути": "прокрути вниз, прокрути к 12", "прочитай": "прочитай страницу, читай дальше, читай с заголовка 3",
	"читай": "читай дальше, читай с заголовка 3, читай с начала", "найди": "найди поиск", "открой": "открой 4 в новой вкладке",
	"вкладка": "вкладка 2", "скачай": "скачай 6", "загрузи": "загрузи 2 /home/me/файл.pdf", "перейди": "перейди на example.org",
	"закрой": "закрой вкладку",
}

// forget drops the list and reading (another page); b.mu is held.
func (b *Browsing) forget() {
	b.last, b.listNext, b.listMore, b.listTotal = "", 0, false, 0
	b.readURL, b.readNext, b.readMore, b.readTotal = "", 0, false, 0
}

// commandWords are the first words of the commands, for a typo's suggestion.
var commandWords = []string{"list", "more", "next", "click", "type", "select", "press", "scroll", "back", "forward", "reload",
	"read", "find", "open", "tab", "tabs", "download", "upload", "go", "help", "show", "hide", "close",
	"список", "ещё", "дальше", "нажми", "введи", "выбери", "клавиша", "прокрути", "назад", "вперёд", "обнови", "прочитай",
	"читай", "найди", "открой", "вкладка", "вкладки", "скачай", "загрузи", "перейди", "помощь", "покажи", "скрой", "закрой"}

// suggest returns the command a typo most likely meant ("clcik 5" → "click
// 5", "click5" → "click 5"), or "".
func suggest(c string) string {
	fields := strings.Fields(c)
	if len(fields) == 0 {
		return ""
	}
	w := strings.ToLower(fields[0])
	// "click5": the number glued to the word.
	if i := strings.IndexFunc(w, func(r rune) bool { return r >= '0' && r <= '9' }); i > 0 {
		cand := strings.Join(append([]string{w[:i], w[i:]}, fields[1:]...), " ")
		if _, err := new(Browsing).parseOnly(cand); err == nil {
			return cand
		}
		w = w[:i]
		fields = append([]string{w, fields[0][i:]}, fields[1:]...)
	}
	best, bestD := "", 3
	for _, cw := range commandWords {
		if d := editDistance(w, cw); d > 0 && d < bestD && len([]rune(w)) > d+1 {
			cand := strings.Join(append([]string{cw}, fields[1:]...), " ")
			if _, err := new(Browsing).parseOnly(cand); err == nil {
				best, bestD = cand, d
			}
		}
	}
	return best
}

// parseOnly is Parse without suggestions (suggest uses it).
func (b *Browsing) parseOnly(c string) (BrowseStep, error) {
	if helpRe.MatchString(c) || listMoreRe.MatchString(c) || readMoreRe.MatchString(c) || moreRe.MatchString(c) {
		return BrowseStep{}, nil
	}
	for _, p := range browsePatterns {
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.step(m)
		}
	}
	return BrowseStep{}, agent.ErrNeedsModel
}

// editDistance is the Levenshtein distance of two words, in characters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
