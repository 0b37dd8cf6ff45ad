package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// BrowseStep is one browser tool call a direct command maps to.
type BrowseStep struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// Say is the short progress line spoken or shown for the step.
	Say string `json:"say"`
}

// BrowseCommands lists the direct commands the built-in engine understands, for
// help and for its refusal.
const BrowseCommands = `list | show numbers | hide numbers | click N | type N TEXT | select N VALUE | press KEY | scroll down/up/top/bottom | scroll to N | back | forward | reload | read page | find TEXT | open N in new tab | tab N | download N | upload N PATH | go to URL  (по-русски: список | покажи номера | скрой номера | нажми N | введи N ТЕКСТ | выбери N ЗНАЧЕНИЕ | клавиша КЛАВИША | прокрути вниз/вверх | прокрути к N | назад | вперёд | обнови | прочитай страницу | найди ТЕКСТ | открой N в новой вкладке | вкладка N | скачай N | загрузи N ПУТЬ | перейди на URL)`

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
		u := m[1]
		if !strings.Contains(u, "://") {
			u = "https://" + u
		}
		return BrowseStep{Tool: "browser_navigate", Args: map[string]any{"url": u}, Say: "Opening " + m[1] + "."}, nil
	}},
}

// ParseBrowseCommand maps a direct command in English or Russian ("click 5",
// "введи 3 привет") to one browser tool call, so a blind user can browse by numbers
// with no model server. An unknown command is an error listing what is understood.
func ParseBrowseCommand(cmd string) (BrowseStep, error) {
	c := strings.Join(strings.Fields(cmd), " ")
	c = strings.TrimRight(c, ".!")
	for _, p := range browsePatterns {
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.step(m)
		}
	}
	return BrowseStep{}, fmt.Errorf("%w: the built-in engine does not understand %q as a browser command; it understands: %s. Goals in plain words need a model server", ErrNeedsModel, cmd, BrowseCommands)
}
