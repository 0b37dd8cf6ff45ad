package web

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
)

// BrowseStep is one browser tool call a direct command maps to (made by
// stepTo), or words only (Say, no Tool: help, the end of a list).
type BrowseStep struct {
	Tool string `json:"tool"`
	// Args are the tool's typed arguments (a browser.ReadArgs, …).
	Args any `json:"args"`
	// Say is the short progress line spoken or shown for the step.
	Say string `json:"say"`
	// call runs the tool through its Ref.
	call func(ctx context.Context, reg *tools.Registry) (browser.Outcome, error)
}

// stepTo is the step that calls the browser tool ref with args.
func stepTo[A, D any](ref tools.Ref[A, browser.Result[D]], args A, say string) BrowseStep {
	return BrowseStep{Tool: ref.Name(), Args: args, Say: say, call: func(ctx context.Context, reg *tools.Registry) (browser.Outcome, error) {
		r, err := ref.Call(ctx, reg, args)
		if err != nil {
			return nil, err
		}
		return r, nil
	}}
}

// TypedInto is the field number a step types text into (false: the step
// types nothing), so a transcript can keep the number without the text.
func (s BrowseStep) TypedInto() (int, bool) {
	a, ok := s.Args.(browser.OverlayActArgs)
	return a.Index, ok && a.Action == "type"
}

var keyNames = map[string]string{
	"enter": "Enter", "ввод": "Enter", "энтер": "Enter", "tab": "Tab", "таб": "Tab", "escape": "Escape", "esc": "Escape", "эскейп": "Escape",
	"space": "Space", "пробел": "Space", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
	"вверх": "ArrowUp", "вниз": "ArrowDown", "влево": "ArrowLeft", "вправо": "ArrowRight", "backspace": "Backspace", "pagedown": "PageDown", "pageup": "PageUp",
	"home": "Home", "end": "End",
}

type browsePattern struct {
	re   *regexp.Regexp
	step func(m []string, l Lang) (BrowseStep, error)
}

func num(s string, l Lang) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, notANumber(l, s)
	}
	return n, nil
}

func notANumber(l Lang, s string) error {
	return errors.New(l.f("%q is not an element number; numbers start at 1 (say list to see them)", "«%s» — не номер элемента; номера начинаются с 1 (скажите «список», чтобы их услышать)", s))
}

func actBy(action string) func(m []string, l Lang) (BrowseStep, error) {
	return func(m []string, l Lang) (BrowseStep, error) {
		n, err := num(m[1], l)
		if err != nil {
			return BrowseStep{}, err
		}
		text := ""
		if action != "click" {
			text = m[2]
		}
		return actStep(l, n, action, text)
	}
}

// actStep is the step of an action on element n: click, or type or select
// text (its quotes and spaces trimmed).
func actStep(l Lang, n int, action, text string) (BrowseStep, error) {
	if n < 1 {
		return BrowseStep{}, notANumber(l, strconv.Itoa(n))
	}
	if _, ok := actVerbs[action]; !ok {
		return BrowseStep{}, errors.New(l.f("%q is not an action: click, type or select", "«%s» — не действие: нажать (click), ввести (type) или выбрать (select)", action))
	}
	args := browser.OverlayActArgs{Index: n, Action: action}
	say := l.f("Clicking %d.", "Нажимаю %d.", n)
	if action != "click" {
		text := strings.TrimSpace(text)
		text = strings.Trim(text, `"«»“”`)
		if text == "" {
			return BrowseStep{}, errors.New(l.f("%s %d needs text after the number", "после номера %[2]d нужен текст", action, n))
		}
		args.Text = text
		say = l.f("Typing into %d.", "Ввожу в %d.", n)
		if action == "select" {
			say = l.f("Choosing %q in %d.", "Выбираю «%s» в %d.", text, n)
		}
	}
	return stepTo(browser.OverlayActRef, args, say), nil
}

// fixed is a command with no parameters: always the same call.
func fixed[A, D any](ref tools.Ref[A, browser.Result[D]], en, ru string, args A) func(m []string, l Lang) (BrowseStep, error) {
	return func(_ []string, l Lang) (BrowseStep, error) {
		return stepTo(ref, args, l.t(en, ru)), nil
	}
}

var browsePatterns = sync.OnceValue(func() []browsePattern {
	return []browsePattern{
		{regexp.MustCompile(`(?i)^(?:list|numbers|список|перечисли|номера)$`), fixed(browser.ListInteractivesRef, "Listing the elements.", "Список элементов.", browser.ListInteractivesArgs{})},
		{regexp.MustCompile(`(?i)^(?:list|numbers|список|номера)\s+(?:from\s+|с\s+|от\s+)?(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.ListInteractivesRef, browser.ListInteractivesArgs{Offset: n - 1}, l.f("Listing from number %d.", "Список с номера %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:list from here|list here|список отсюда|список с этого места|перечисли отсюда)$`), fixed(browser.ListInteractivesRef, "Listing from here.", "Список отсюда.", browser.ListInteractivesArgs{FromHere: true})},
		{regexp.MustCompile(`(?i)^(?:read from here|read here|читай отсюда|прочитай отсюда|читай с этого места)$`), fixed(browser.ReadRef, "Reading from here.", "Читаю отсюда.", browser.ReadArgs{Here: true})},
		{regexp.MustCompile(`(?i)^(?:read from (?:the )?(?:start|beginning|top)|read text|read the text|читай с начала|прочитай с начала|читай текст|прочитай текст)$`), fixed(browser.ReadRef, "Reading the text from the start.", "Читаю текст с начала.", browser.ReadArgs{From: 0})},
		{regexp.MustCompile(`(?i)^(?:read (?:from )?heading|read from header|читай с заголовка|прочитай с заголовка|читай заголовок|прочитай заголовок)\s+(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := strconv.Atoi(m[1])
			if err != nil || n < 1 {
				return BrowseStep{}, errors.New(l.f("%q is not a heading number; headings count from 1 (say read page to hear them)", "«%s» — не номер заголовка; заголовки считаются с 1 (скажите «прочитай страницу», чтобы их услышать)", m[1]))
			}
			return stepTo(browser.ReadRef, browser.ReadArgs{Heading: n}, l.f("Reading from heading %d.", "Читаю с заголовка %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:headings|list headings|заголовки|список заголовков)$`), fixed(browser.ExtractRef, "The headings.", "Заголовки.", browser.ExtractArgs{Mode: "summary"})},
		{regexp.MustCompile(`(?i)^(?:tabs|list tabs|вкладки|список вкладок)$`), fixed(browser.TabsRef, "The tabs:", "Вкладки:", browser.TabsArgs{})},
		{regexp.MustCompile(`(?i)^(?:close tab|close this tab|закрой вкладку|закрыть вкладку)$`), fixed(browser.CloseTabRef, "Closing this tab.", "Закрываю эту вкладку.", browser.CloseTabArgs{})},
		{regexp.MustCompile(`(?i)^(?:close tab|закрой вкладку)\s+(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.CloseTabRef, browser.CloseTabArgs{Index: n}, l.f("Closing tab %d.", "Закрываю вкладку %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:show numbers|show overlay|покажи номера)$`), fixed(browser.OverlayShowRef, "Numbers shown.", "Номера показаны.", browser.OverlayShowArgs{})},
		{regexp.MustCompile(`(?i)^(?:hide numbers|hide overlay|скрой номера|спрячь номера)$`), fixed(browser.OverlayHideRef, "Numbers hidden.", "Номера скрыты.", browser.OverlayHideArgs{})},
		{regexp.MustCompile(`(?i)^(?:click|press|нажми|кликни|щёлкни|щелкни)\s+(\d+)$`), actBy("click")},
		{regexp.MustCompile(`(?i)^(?:type|write|enter|введи|напиши|впиши)\s+(\d+)\s+(.+)$`), actBy("type")},
		{regexp.MustCompile(`(?i)^(?:select|choose|pick|выбери)\s+(\d+)\s+(.+)$`), actBy("select")},
		{regexp.MustCompile(`(?i)^(?:press|key|нажми|клавиша)\s+([a-zа-яё]+)$`), func(m []string, l Lang) (BrowseStep, error) {
			k, ok := keyNames[strings.ToLower(m[1])]
			if !ok {
				if len([]rune(m[1])) == 1 {
					k = m[1]
				} else {
					return BrowseStep{}, errors.New(l.f("unknown key %q; keys: Enter, Tab, Escape, Space, Up, Down, Left, Right, Backspace, PageUp, PageDown, Home, End or one letter",
						"нет клавиши «%s»; клавиши: ввод, таб, эскейп, пробел, вверх, вниз, влево, вправо, Backspace, PageUp, PageDown, Home, End или одна буква", m[1]))
				}
			}
			return stepTo(browser.PressRef, browser.PressArgs{Key: k}, l.f("Pressing %s.", "Нажимаю клавишу %s.", k)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:scroll|прокрути|листай)\s+(down|up|top|bottom|вниз|вверх|наверх|в начало|в конец)$`), func(m []string, l Lang) (BrowseStep, error) {
			switch strings.ToLower(m[1]) {
			case "down", "вниз":
				return stepTo(browser.ScrollRef, browser.ScrollArgs{ByY: 600}, l.t("Scrolling down.", "Прокручиваю вниз.")), nil
			case "up", "вверх":
				return stepTo(browser.ScrollRef, browser.ScrollArgs{ByY: -600}, l.t("Scrolling up.", "Прокручиваю вверх.")), nil
			case "top", "наверх", "в начало":
				return stepTo(browser.ScrollRef, browser.ScrollArgs{To: "top"}, l.t("To the top.", "В начало страницы.")), nil
			}
			return stepTo(browser.ScrollRef, browser.ScrollArgs{To: "bottom"}, l.t("To the bottom.", "В конец страницы.")), nil
		}},
		{regexp.MustCompile(`(?i)^(?:scroll to|прокрути к|прокрути до)\s+(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.ScrollRef, browser.ScrollArgs{Index: n}, l.f("Scrolling to %d.", "Прокручиваю к %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:back|go back|назад)$`), fixed(browser.BackRef, "Going back.", "Назад.", browser.BackArgs{})},
		{regexp.MustCompile(`(?i)^(?:forward|go forward|вперёд|вперед)$`), fixed(browser.ForwardRef, "Going forward.", "Вперёд.", browser.ForwardArgs{})},
		{regexp.MustCompile(`(?i)^(?:reload|refresh|обнови|перезагрузи)$`), fixed(browser.ReloadRef, "Reloading.", "Обновляю страницу.", browser.ReloadArgs{})},
		{regexp.MustCompile(`(?i)^(?:read page|read|summary|прочитай страницу|прочитай|что на странице)$`), fixed(browser.ExtractRef, "Reading the page.", "Читаю страницу.", browser.ExtractArgs{Mode: "summary"})},
		{regexp.MustCompile(`(?i)^(?:find|search for|найди)\s+(.+)$`), func(m []string, l Lang) (BrowseStep, error) {
			t := strings.Trim(strings.TrimSpace(m[1]), `"«»“”`)
			return stepTo(browser.FindRef, browser.FindArgs{Text: t}, l.f("Looking for %q.", "Ищу «%s».", t)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:open|открой)\s+(\d+)\s+(?:in (?:a )?new tab|в новой вкладке)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.OpenInNewTabRef, browser.OpenInNewTabArgs{Index: n}, l.f("Opening %d in a new tab.", "Открываю %d в новой вкладке.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:download|save|скачай|сохрани)\s+(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.ClickAndWaitDownloadRef, browser.ClickAndWaitDownloadArgs{Index: n}, l.f("Downloading %d.", "Скачиваю %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:upload|attach|загрузи|прикрепи|отправь файл)\s+(\d+)\s+(.+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			path := strings.Trim(strings.TrimSpace(m[2]), `"«»“”`)
			return stepTo(browser.UploadRef, browser.UploadArgs{Index: n, Files: []string{path}}, l.f("Giving the file to %d.", "Передаю файл в %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:tab|вкладка)\s+(\d+)$`), func(m []string, l Lang) (BrowseStep, error) {
			n, err := num(m[1], l)
			if err != nil {
				return BrowseStep{}, err
			}
			return stepTo(browser.SwitchTabRef, browser.SwitchTabArgs{Index: n}, l.f("Switching to tab %d.", "Перехожу на вкладку %d.", n)), nil
		}},
		{regexp.MustCompile(`(?i)^(?:go to|open|navigate to|перейди на|перейди|открой|зайди на)\s+(\S+)$`), goTo},
		// An address typed alone opens it: localhost:8601, 127.0.0.1:8080/x,
		// example.org/page, http://… (a word with a dot or a port, no spaces).
		{regexp.MustCompile(`(?i)^((?:https?://|file://)\S+|(?:localhost|[\w-]+(?:\.[\w-]+)+|\[[0-9a-f:]+\])(?::\d+)?(?:[/?#]\S*)?|localhost(?::\d+)?)$`), goTo},
	}
})

// goTo opens an address as typed: the navigator picks the scheme (http first
// on loopback, https first elsewhere) and tries the other when the first
// cannot connect.
func goTo(m []string, l Lang) (BrowseStep, error) {
	u := m[1]
	if !strings.ContainsAny(u, ".:/") && !strings.EqualFold(u, "localhost") {
		return BrowseStep{}, errors.New(l.f("%q is not an address; say go to and the address, e.g. go to example.org", "«%s» — не адрес; скажите «перейди на» и адрес, например: перейди на example.org", u))
	}
	return stepTo(browser.NavigateRef, browser.NavigateArgs{URL: u}, l.f("Opening %s.", "Открываю %s.", u)), nil
}

// NotCommandError is a line that is no direct command: one short line for the
// listener (a near command when it looks like a typo), and ErrNeedsModel
// underneath, so a model server can take it as a goal.
type NotCommandError struct {
	Line, Suggestion string
	// Usage is how the command the line starts with is said, when it starts
	// with one but the rest does not fit ("type 3" with no text).
	Usage string
	Lang  Lang
	// Door is where the listener is (DoorWindow by default).
	Door string
}

func (e *NotCommandError) Error() string {
	l := e.Lang
	if e.Usage != "" {
		return l.f("Not a command: %q. Say it like: %s. Say help for the commands.", "Это не команда: «%s». Скажите так: %s. Скажите «помощь», чтобы услышать команды.", e.Line, e.Usage)
	}
	if e.Suggestion != "" {
		return l.f("Not a command: %q. Did you mean %q? Say help for the commands.", "Это не команда: «%s». Может быть, «%s»? Скажите «помощь», чтобы услышать команды.", e.Line, e.Suggestion)
	}
	switch e.Door {
	case DoorTerminal:
		return l.f("Not a command: %q. Goals in plain words need a model server: start waymark browse again with WAYMARK_MODEL_URL (and WAYMARK_MODEL) set to it. Say help for the number commands.",
			"Это не команда: «%s». Цели своими словами требуют сервера модели: запустите waymark browse снова, задав WAYMARK_MODEL_URL (и WAYMARK_MODEL). Скажите «помощь», чтобы услышать команды по номерам.", e.Line)
	case DoorMCP:
		return l.f("Not a command: %q. A goal in plain words goes to BrowserGoal; say help for the number commands.",
			"Это не команда: «%s». Цель своими словами — для BrowserGoal; скажите «помощь», чтобы услышать команды по номерам.", e.Line)
	}
	return l.f("Not a command: %q. Goals in plain words need a model server (Settings); say help for the number commands.",
		"Это не команда: «%s». Цели своими словами требуют сервера модели (Настройки); скажите «помощь», чтобы услышать команды по номерам.", e.Line)
}

// Doors of the number browser: where a listener is, so that what to do next
// is said in the words of that door (the window has Settings, the terminal
// has environment variables).
const (
	DoorWindow   = "window"
	DoorTerminal = "terminal"
	DoorMCP      = "mcp"
)

func (e *NotCommandError) Unwrap() error { return agent.ErrNeedsModel }

// IsGoal reports whether the line may be a goal in plain words (no typo of a
// command, no command said wrongly).
func (e *NotCommandError) IsGoal() bool { return e.Usage == "" && e.Suggestion == "" }

// Browsing is the state of one number-browsing conversation (the terminal
// loop, the Browser workspace, an MCP client's BrowseCommand calls): where
// the last list, find, headings and reading stopped, so "more" goes on with
// whichever came last, and where reading stood on each page left, so "back"
// finds it again. Its methods are safe for concurrent use.
type Browsing struct {
	// Door is where the listener is (DoorWindow, DoorTerminal, DoorMCP): what
	// to do next is said in its words.
	Door string

	mu   sync.Mutex
	lang Lang
	last string // "list", "find", "headings" or "read": what "more" continues

	listNext  int // offset of the next list window
	listMore  bool
	listTotal int

	findText  string
	findNext  int
	findTotal int

	// The search of the page's text: what, which occurrence, of how many,
	// and where its line starts in the text (textAt, -1: no occurrence to
	// read from: "read from here" reads from there while it is >= 0).
	textQuery string
	textOcc   int
	textTotal int
	textAt    int
	textURL   string
	textHere  bool

	// The table being read: which, its size, and the cell the reader is on
	// (0: none yet).
	table, tableRow, tableCol, tableRows, tableCols int
	tableURL                                        string

	headNext  int
	headTotal int

	readURL   string // the page the reading is on (without its #fragment)
	readNext  int
	readMore  bool
	readTotal int
	// readHere: an in-page link (a #fragment) was just followed: reading
	// goes on from its target.
	readHere bool
	// places keeps where reading stood on each page left, by address.
	places map[string]readPlace
	// held is a step that leaves the page (go to, back, forward, reload)
	// which the page holds by asking whether to leave it: nothing changed
	// yet; it happens when the user says OK.
	held string
}

// readPlace is where reading stood on a page.
type readPlace struct{ next, total int }

var (
	moreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:more|next|go on|continue|ещё|еще|дальше|далее|продолжай)$`)
	})
	listMoreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:list more|list next|more elements|next elements|список дальше|список ещё|список еще|ещё список|еще список|следующие)$`)
	})
	readMoreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:read more|read on|read next|continue reading|keep reading|читай дальше|читать дальше|прочитай дальше|дальше читай|читай ещё|читай еще)$`)
	})
	headMoreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:more headings|next headings|ещё заголовки|еще заголовки|заголовки дальше)$`)
	})
	helpRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:help|commands|\?|помощь|команды|справка)$`)
	})
)

// Parse maps a command to its step, going on from the remembered list,
// find, headings or reading for "more" and its kin. "help" is a step with no
// tool: its Say is the help. Everything is said in the command's language.
func (b *Browsing) Parse(cmd string) (BrowseStep, error) {
	c := strings.Join(strings.Fields(cmd), " ")
	c = strings.TrimRight(c, ".!")
	l := b.langFor(c)
	switch {
	case helpRe().MatchString(c):
		return BrowseStep{Say: Help(l)}, nil
	case listMoreRe().MatchString(c):
		return b.more("list", l), nil
	case readMoreRe().MatchString(c):
		return b.more("read", l), nil
	case headMoreRe().MatchString(c):
		return b.more("headings", l), nil
	case moreRe().MatchString(c):
		b.mu.Lock()
		what := b.last
		b.mu.Unlock()
		if what == "" {
			what = "list"
		}
		return b.more(what, l), nil
	}
	if step, ok, err := b.textStep(c, l); ok {
		return step, err
	}
	if step, ok, err := b.tableStep(c, l); ok {
		return step, err
	}
	for _, p := range browsePatterns() {
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.step(m, l)
		}
	}
	e := &NotCommandError{Line: strings.TrimSpace(cmd), Suggestion: suggest(c), Lang: l, Door: b.Door}
	if f := strings.Fields(strings.ToLower(c)); len(f) > 0 && e.Suggestion == "" {
		e.Usage = usage[f[0]]
	}
	return BrowseStep{}, e
}

// langFor is the language of a command: Russian when it has a Cyrillic
// letter, English when it has a Latin word that is no address, else the
// conversation's language so far (a bare number or address keeps it).
func (b *Browsing) langFor(c string) Lang {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := LangOf(c)
	if l == Russian || !regexp.MustCompile(`^\S+$`).MatchString(c) || helpRe().MatchString(c) || moreRe().MatchString(c) {
		b.lang = l
		return l
	}
	for _, p := range browsePatterns()[len(browsePatterns())-1:] {
		if p.re.MatchString(c) && b.lang != "" {
			return b.lang // a bare address
		}
	}
	b.lang = l
	return l
}

// more is the step that goes on with the list, the find, the headings or
// the reading.
func (b *Browsing) more(what string, l Lang) BrowseStep {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch what {
	case "read":
		switch {
		case b.readHere:
			return stepTo(browser.ReadRef, browser.ReadArgs{Here: true}, l.t("Reading from here.", "Читаю отсюда."))
		case b.readURL == "":
			return stepTo(browser.ReadRef, browser.ReadArgs{From: 0}, l.t("Reading the text from the start.", "Читаю текст с начала."))
		case !b.readMore:
			return BrowseStep{Say: l.f("That was the end of the text (%s characters). Say read from start, read from heading 3, or read page.",
				"Это был конец текста (%s знаков). Скажите «читай с начала», «читай с заголовка 3» или «прочитай страницу».", count(l, b.readTotal))}
		}
		return stepTo(browser.ReadRef, browser.ReadArgs{From: b.readNext, ContinueURL: b.readURL}, l.t("Reading on.", "Читаю дальше."))
	case "text":
		return b.occurrence(b.textOcc+1, "", l)
	case "find":
		if b.findNext >= b.findTotal {
			return BrowseStep{Say: l.f("That was the last match: %s in all. Say find and a word to look for something else.",
				"Это было последнее совпадение, всего %s. Скажите «найди» и слово, чтобы искать другое.", count(l, b.findTotal))}
		}
		return stepTo(browser.FindRef, browser.FindArgs{Text: b.findText, Offset: b.findNext}, l.f("More matches for %q.", "Ещё совпадения с «%s».", b.findText))
	case "headings":
		if b.headTotal == 0 || b.headNext >= b.headTotal {
			if b.headTotal == 0 {
				return stepTo(browser.ExtractRef, browser.ExtractArgs{Mode: "summary"}, l.t("Reading the page.", "Читаю страницу."))
			}
			return BrowseStep{Say: l.f("That was the last heading: %s in all. Say read from heading and its number.",
				"Это был последний заголовок, всего %s. Скажите «читай с заголовка» и его номер.", count(l, b.headTotal))}
		}
		return stepTo(browser.ExtractRef, browser.ExtractArgs{Mode: "summary", HeadingsFrom: b.headNext}, l.f("Headings from %d.", "Заголовки с %d.", b.headNext+1))
	}
	switch {
	case b.listTotal == 0 && !b.listMore:
		return stepTo(browser.ListInteractivesRef, browser.ListInteractivesArgs{}, l.t("Listing the elements.", "Список элементов."))
	case !b.listMore:
		return BrowseStep{Say: l.f("That was the end of the list: %s in all. Say list to start again, or list and a number to start there.",
			"Это был конец списка, всего элементов: %s. Скажите «список», чтобы начать сначала, или «список» и номер, чтобы начать с него.", elements(l, b.listTotal))}
	}
	return stepTo(browser.ListInteractivesRef, browser.ListInteractivesArgs{Offset: b.listNext}, l.f("Listing from number %d.", "Список с номера %d.", b.listNext+1))
}

// withoutFragment is an address without its #fragment: an in-page link
// keeps the reader on the same page.
func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// Observe remembers what a step's result says about the list, the find, the
// headings and the reading; a step that leads to another page keeps where
// reading stood on the page left, and a step back (or forward) to a page
// finds it again (Restored says so).
func (b *Browsing) Observe(step BrowseStep, res any) (restored *readPlace) {
	raw, _ := json.Marshal(res)
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Total         int             `json:"total"`
			Offset        int             `json:"offset"`
			Matches       []any           `json:"matches"`
			HasMore       bool            `json:"has_more"`
			NextOffset    int             `json:"next_offset"`
			URL           string          `json:"url"`
			Next          int             `json:"next"`
			MoreAt        int             `json:"more_at"`
			TextChars     int             `json:"text_chars"`
			Navigated     bool            `json:"navigated"`
			HeadingsTotal int             `json:"headings_total"`
			HeadingsFrom  int             `json:"headings_from"`
			Occurrence    int             `json:"occurrence"`
			Table         int             `json:"table"`
			Row           int             `json:"row"`
			Column        int             `json:"column"`
			Rows          int             `json:"rows"`
			Columns       int             `json:"columns"`
			LineAt        int             `json:"line_at"`
			Chars         int             `json:"chars"`
			Headings      json.RawMessage `json:"headings"` // a list (extract) or a count (read)
			NewTabs       []any           `json:"new_tabs"`
			Asks          *browser.Dialog `json:"dialog_open"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Status != "ok" {
		return nil
	}
	d := r.Data
	b.mu.Lock()
	defer b.mu.Unlock()
	tool, held := b.leaving(step.Tool, d.Asks, d.Navigated)
	if held {
		return nil
	}
	page := withoutFragment(d.URL)
	if tool != "browser_find_text" {
		b.textHere = false // "read from here" is no longer at the occurrence
	}
	switch tool {
	case "browser_list_interactives":
		b.last, b.listTotal, b.listMore, b.listNext = "list", d.Total, d.HasMore, d.NextOffset
	case "browser_find":
		b.last, b.findTotal, b.findNext = "find", d.Total, d.Offset+len(d.Matches)
		b.findText = searched(step.Args)
	case "browser_table":
		b.table, b.tableRow, b.tableCol, b.tableRows, b.tableCols, b.tableURL = d.Table, d.Row, d.Column, d.Rows, d.Columns, page
	case "browser_find_text":
		b.textQuery = searched(step.Args)
		b.textTotal, b.textOcc, b.textAt, b.textURL, b.textHere = d.Total, d.Occurrence, d.LineAt, page, d.Total > 0 && d.LineAt >= 0
		if b.textHere {
			// Reading goes on from the occurrence's line.
			b.last, b.readURL, b.readTotal, b.readMore, b.readNext, b.readHere = "text", page, d.Chars, d.LineAt < d.Chars, d.LineAt, false
		}
	case "browser_read":
		b.last, b.readURL, b.readTotal, b.readMore, b.readNext, b.readHere = "read", page, d.Total, d.Next < d.Total, d.Next, false
	case "browser_extract":
		var heads []any
		_ = json.Unmarshal(d.Headings, &heads)
		b.headTotal, b.headNext = d.HeadingsTotal, d.HeadingsFrom+len(heads)
		if d.HeadingsFrom > 0 {
			b.last = "headings"
			break
		}
		b.last, b.readURL, b.readTotal, b.readMore, b.readNext, b.readHere = "read", page, d.TextChars, d.MoreAt > 0, d.MoreAt, false
	case "browser_navigate", "browser_back", "browser_forward", "browser_switch_tab", "browser_open_in_new_tab", "browser_close_tab":
		restored = b.moved(tool, page, d.URL)
	case "browser_reload":
		b.listNext, b.listMore, b.listTotal = 0, false, 0
	default:
		switch {
		case d.Navigated && len(d.NewTabs) == 0:
			b.leave()
			b.inPage(d.URL, true)
		case step.Tool == "browser_overlay_act" && len(d.NewTabs) == 0 && strings.Contains(d.URL, "#"):
			// An in-page link: the same page, read on from its target.
			b.inPage(d.URL, true)
		}
	}
	return restored
}

// leavingSteps are the steps a page may hold by asking whether to leave it.
var leavingSteps = map[string]bool{"browser_navigate": true, "browser_back": true, "browser_forward": true, "browser_reload": true}

// leaving tells which step a result finishes: a step that leaves the page
// which the page holds by asking before it is left (asks) is held, and
// nothing changes (the user may say Cancel and stay, reading and the list as
// they were); the answer that lets the page go (the dialog's result,
// navigated) finishes it, as the step itself would have. b.mu is held.
func (b *Browsing) leaving(tool string, asks *browser.Dialog, navigated bool) (string, bool) {
	if leavingSteps[tool] && asks != nil && asks.Type == "beforeunload" {
		b.held = tool
		return tool, true
	}
	if tool != browser.DialogRef.Name() {
		b.held = ""
		return tool, false
	}
	h := b.held
	b.held = ""
	if h != "" && navigated && asks == nil {
		return h, false
	}
	return tool, false
}

// moved notes a step to another page or tab (tool) now at u (page: without
// its #fragment): the page left keeps its reading place, and going back or
// forward to a page finds its own again (restored). b.mu is held.
func (b *Browsing) moved(tool, page, u string) (restored *readPlace) {
	b.leave()
	if tool == "browser_back" || tool == "browser_forward" {
		if p, ok := b.places[page]; ok && page != "" {
			b.last, b.readURL, b.readNext, b.readTotal, b.readMore = "read", page, p.next, p.total, p.next < p.total
			restored = &p
		}
	}
	b.inPage(u, tool == "browser_navigate")
	return restored
}

// searched is the text a find or a find in text looked for.
func searched(args any) string {
	switch a := args.(type) {
	case browser.FindArgs:
		return a.Text
	case browser.FindTextArgs:
		return a.Text
	}
	return ""
}

// leave keeps where reading stood on the page left and forgets the list,
// the find and the headings; b.mu is held.
func (b *Browsing) leave() {
	if b.readURL != "" && b.readNext > 0 {
		if b.places == nil {
			b.places = map[string]readPlace{}
		}
		b.places[b.readURL] = readPlace{next: b.readNext, total: b.readTotal}
	}
	b.last, b.listNext, b.listMore, b.listTotal = "", 0, false, 0
	b.findText, b.findNext, b.findTotal, b.headNext, b.headTotal = "", 0, 0, 0, 0
	b.textQuery, b.textOcc, b.textTotal, b.textAt, b.textURL, b.textHere = "", 0, 0, 0, "", false
	b.table, b.tableRow, b.tableCol, b.tableRows, b.tableCols, b.tableURL = 0, 0, 0, 0, 0, ""
	b.readURL, b.readNext, b.readMore, b.readTotal, b.readHere = "", 0, false, 0, false
}

// inPage notes a page whose address has a #fragment: reading goes on from
// its target (when moved is true: a link was followed to it); b.mu is held.
func (b *Browsing) inPage(u string, moved bool) {
	if i := strings.IndexByte(u, '#'); moved && i >= 0 && i < len(u)-1 {
		b.last, b.readHere, b.readURL = "read", true, withoutFragment(u)
	}
}

// Searching the page's text: "find in text malloc", "найди в тексте malloc",
// "next occurrence", "предыдущее вхождение", "occurrence 3", "third
// occurrence of malloc", "третье вхождение malloc".
var (
	textFindRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:(?:find|search|look for)(?: for)? (?:in|on) (?:the )?(?:text|page)(?: for)?|(?:find|search)(?: the)? text(?: for)?|search (?:the )?page for|(?:найди|ищи|искать|поищи|поиск) (?:в тексте|по тексту|на странице))\s+(.+)$`)
	})
	textNextRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:next occurrence|next in (?:the )?text|следующее вхождение|следующее в тексте|дальше в тексте)$`)
	})
	textPrevRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:previous occurrence|prev occurrence|previous in (?:the )?text|предыдущее вхождение|предыдущее в тексте|назад в тексте)$`)
	})
	// "occurrence 3 [of] [malloc]", "вхождение 3 [malloc]".
	textNthRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:occurrence|вхождение)\s+(\d+)(?:\s+(?:of\s+)?(.+))?$`)
	})
	// "third occurrence [of] [malloc]", "3rd occurrence", "третье вхождение [malloc]", "3-е вхождение".
	textOrdRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(\S+)\s+(?:occurrence|вхождение)(?:\s+(?:of\s+)?(.+))?$`)
	})
	readHereRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:read from here|read here|читай отсюда|прочитай отсюда|читай с этого места)$`)
	})
)

// ordinals are the occurrence words, in English and Russian.
var ordinals = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
	"last": -1, "первое": 1, "второе": 2, "третье": 3, "четвёртое": 4, "четвертое": 4, "пятое": 5, "шестое": 6, "седьмое": 7,
	"восьмое": 8, "девятое": 9, "десятое": 10, "последнее": -1,
}

// ordinal reads "third", "3rd", "третье", "3-е" as 3 ("last" as -1).
func ordinal(w string) (int, bool) {
	w = strings.ToLower(w)
	if n, ok := ordinals[w]; ok {
		return n, true
	}
	m := regexp.MustCompile(`^(\d+)(?:st|nd|rd|th|-?е|-?ое)?$`).FindStringSubmatch(w)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil && n > 0
}

// textStep is the step of a command that searches the page's text (ok: c
// is one), and "read from here" after an occurrence was found.
func (b *Browsing) textStep(c string, l Lang) (BrowseStep, bool, error) {
	trim := func(s string) string { return strings.Trim(strings.TrimSpace(s), `"«»“”`) }
	if m := textFindRe().FindStringSubmatch(c); m != nil {
		q := trim(m[1])
		if q == "" {
			return BrowseStep{}, true, errors.New(l.t("say what to look for: find in text and a word", "скажите, что искать: «найди в тексте» и слово"))
		}
		return stepTo(browser.FindTextRef, browser.FindTextArgs{Text: q, Occurrence: 1}, l.f("Looking for %q in the text.", "Ищу «%s» в тексте.", q)), true, nil
	}
	switch {
	case textNextRe().MatchString(c):
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.occurrence(b.textOcc+1, "", l), true, nil
	case textPrevRe().MatchString(c):
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.occurrence(b.textOcc-1, "", l), true, nil
	case readHereRe().MatchString(c):
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.textHere {
			return BrowseStep{}, false, nil
		}
		return stepTo(browser.ReadRef, browser.ReadArgs{From: b.textAt, ContinueURL: b.textURL}, l.f("Reading from occurrence %d of %q.", "Читаю с вхождения %d «%s».", b.textOcc, b.textQuery)), true, nil
	}
	var n int
	var q string
	if m := textNthRe().FindStringSubmatch(c); m != nil {
		n, _ = strconv.Atoi(m[1])
		q = trim(m[2])
	} else if m := textOrdRe().FindStringSubmatch(c); m != nil {
		k, ok := ordinal(m[1])
		if !ok {
			return BrowseStep{}, false, nil
		}
		n, q = k, trim(m[2])
	} else {
		return BrowseStep{}, false, nil
	}
	if n == 0 {
		return BrowseStep{}, true, errors.New(l.t("occurrences count from 1: say occurrence 3, or third occurrence of a word",
			"вхождения считаются с 1: скажите «вхождение 3» или «третье вхождение» и слово"))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.occurrence(n, q, l), true, nil
}

// occurrence is the step to the nth occurrence (-1: the last) of q, or of
// the text searched last when q is ""; b.mu is held.
func (b *Browsing) occurrence(n int, q string, l Lang) BrowseStep {
	if q == "" {
		q = b.textQuery
		if q == "" {
			return BrowseStep{Say: l.t("Nothing was searched for yet: say find in text and a word.", "Ещё ничего не искали: скажите «найди в тексте» и слово.")}
		}
		if n == -1 {
			n = b.textTotal
		}
		switch {
		case b.textTotal == 0:
			return BrowseStep{Say: l.f("%q is not in the page's text. Say find in text and another word.", "«%s» в тексте страницы нет. Скажите «найди в тексте» и другое слово.", q)}
		case n < 1:
			return BrowseStep{Say: l.f("That was the first occurrence of %q; there are %s.", "Это было первое вхождение «%s»; всего их %s.", q, count(l, b.textTotal))}
		case n > b.textTotal:
			return BrowseStep{Say: l.f("That was the last occurrence of %q: %s in all.", "Это было последнее вхождение «%s», всего %s.", q, count(l, b.textTotal))}
		}
	}
	if n == -1 {
		if q != b.textQuery || b.textTotal == 0 {
			// The last of a text not yet counted: count it first.
			return stepTo(browser.FindTextRef, browser.FindTextArgs{Text: q, Occurrence: 1, Last: true}, l.f("Looking for the last %q in the text.", "Ищу последнее «%s» в тексте.", q))
		}
		n = b.textTotal
	}
	return stepTo(browser.FindTextRef, browser.FindTextArgs{Text: q, Occurrence: n}, l.f("Occurrence %d of %q.", "Вхождение %d «%s».", n, q))
}

// Reading tables: "table", "table 2", "next row", "previous column", "row 3",
// "column 2", "read row", "read column", and in Russian "таблица",
// "следующая строка", "предыдущий столбец", "строка 3", "столбец 2",
// "прочитай строку", "прочитай столбец".
var (
	tableRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:table|tables|read (?:the )?table|таблица|таблицы|прочитай таблицу|читай таблицу)(?:\s+(\d+))?$`)
	})
	tableMoveRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(next row|row down|previous row|prev row|row up|next column|next cell|previous column|prev column|previous cell|следующая строка|строка вниз|предыдущая строка|строка вверх|следующий столбец|следующая колонка|следующая ячейка|предыдущий столбец|предыдущая колонка|предыдущая ячейка|read row|read the row|прочитай строку|читай строку|read column|read the column|прочитай столбец|читай столбец|first row|первая строка|last row|последняя строка)$`)
	})
	tableGoRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(row|column|строка|столбец|колонка)\s+(\d+)$`)
	})
)

// tableStep is the step of a table command (ok: c is one).
func (b *Browsing) tableStep(c string, l Lang) (BrowseStep, bool, error) {
	if m := tableRe().FindStringSubmatch(c); m != nil {
		n := 1
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
			if n < 1 {
				return BrowseStep{}, true, errors.New(l.t("tables count from 1: say table 2", "таблицы считаются с 1: скажите «таблица 2»"))
			}
		}
		return stepTo(browser.TableRef, browser.TableArgs{Table: n, Row: 1, Column: 1, Mode: "table"}, l.f("Table %d.", "Таблица %d.", n)), true, nil
	}
	var what string
	var n int
	if m := tableMoveRe().FindStringSubmatch(c); m != nil {
		what = strings.ToLower(m[1])
	} else if m := tableGoRe().FindStringSubmatch(c); m != nil {
		what = strings.ToLower(m[1])
		n, _ = strconv.Atoi(m[2])
		if n < 1 {
			return BrowseStep{}, true, errors.New(l.t("rows and columns count from 1", "строки и столбцы считаются с 1"))
		}
	} else {
		return BrowseStep{}, false, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.table == 0 {
		return BrowseStep{Say: l.t("No table is being read: say table, or table and its number.", "Таблица ещё не выбрана: скажите «таблица» или «таблица» и её номер.")}, true, nil
	}
	row, col, mode := b.tableRow, b.tableCol, "cell"
	edge := ""
	switch what {
	case "next row", "row down", "следующая строка", "строка вниз":
		row++
		if row > b.tableRows {
			edge = l.f("That was the last row: %d in all.", "Это была последняя строка, всего %d.", b.tableRows)
		}
	case "previous row", "prev row", "row up", "предыдущая строка", "строка вверх":
		row--
		if row < 1 {
			edge = l.t("That was the first row.", "Это была первая строка.")
		}
	case "next column", "next cell", "следующий столбец", "следующая колонка", "следующая ячейка":
		col++
		if col > b.tableCols {
			edge = l.f("That was the last column: %d in all.", "Это был последний столбец, всего %d.", b.tableCols)
		}
	case "previous column", "prev column", "previous cell", "предыдущий столбец", "предыдущая колонка", "предыдущая ячейка":
		col--
		if col < 1 {
			edge = l.t("That was the first column.", "Это был первый столбец.")
		}
	case "read row", "read the row", "прочитай строку", "читай строку":
		mode = "row"
	case "read column", "read the column", "прочитай столбец", "читай столбец":
		mode = "column"
	case "first row", "первая строка":
		row = 1
	case "last row", "последняя строка":
		row = b.tableRows
	case "row", "строка":
		row = n
	case "column", "столбец", "колонка":
		col = n
	}
	if edge != "" {
		return BrowseStep{Say: edge}, true, nil
	}
	return stepTo(browser.TableRef, browser.TableArgs{Table: b.table, Row: row, Column: col, Mode: mode}, ""), true, nil
}

// usage says how a command is said, by its first word.
var usage = map[string]string{
	"list": "list, list 51, list from here", "click": "click 5", "type": "type 3 hello", "select": "select 7 Kazan",
	"press": "press Enter, press 5", "scroll": "scroll down, scroll up, scroll to 12", "read": "read page, read more, read from here, read from heading 3",
	"find": "find search", "open": "open 4 in new tab, or open example.org", "tab": "tab 2", "download": "download 6",
	"upload": "upload 2 /home/me/file.pdf", "go": "go to example.org", "close": "close tab, close tab 2",
	"список": "список, список 51, список отсюда", "нажми": "нажми 5", "введи": "введи 3 привет", "выбери": "выбери 7 Казань",
	"прокрути": "прокрути вниз, прокрути к 12", "прочитай": "прочитай страницу, читай дальше, читай отсюда, читай с заголовка 3",
	"читай": "читай дальше, читай отсюда, читай с заголовка 3, читай с начала", "найди": "найди поиск", "открой": "открой 4 в новой вкладке",
	"вкладка": "вкладка 2", "скачай": "скачай 6", "загрузи": "загрузи 2 /home/me/файл.pdf", "перейди": "перейди на example.org",
	"закрой": "закрой вкладку",
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
		if d := textmatch.EditDistance(w, cw); d > 0 && d < bestD && len([]rune(w)) > d+1 {
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
	if helpRe().MatchString(c) || listMoreRe().MatchString(c) || readMoreRe().MatchString(c) || moreRe().MatchString(c) {
		return BrowseStep{}, nil
	}
	for _, p := range browsePatterns() {
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.step(m, LangOf(c))
		}
	}
	return BrowseStep{}, agent.ErrNeedsModel
}
