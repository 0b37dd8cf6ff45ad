package miniwob

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrNotSolvable is returned for a task the built-in solver does not claim:
// it needs a model server.
var ErrNotSolvable = errors.New("not solvable without a model")

// Step is one action by number the solver plans: act on the element of
// role (any role when empty) whose name is Name (or the Nth of the role
// when Nth > 0).
type Step struct {
	Action string // click, type, select
	Role   string
	Name   string
	Nth    int
	Text   string
}

// Plan turns a task's utterance into steps, for the task families the
// built-in engine solves by numbers.
func Plan(task, utterance string) ([]Step, error) {
	q := func(re string) []string { return regexp.MustCompile(re).FindStringSubmatch(utterance) }
	switch task {
	case "click-button":
		if m := q(`^Click on the "(.+)" button\.$`); m != nil {
			return []Step{{Action: "click", Role: "button", Name: m[1]}}, nil
		}
	case "click-link":
		if m := q(`^Click on the link "(.+)"\.$`); m != nil {
			return []Step{{Action: "click", Role: "link", Name: m[1]}}, nil
		}
	case "focus-text":
		if utterance == "Focus into the textbox." {
			return []Step{{Action: "click", Role: "textbox", Nth: 1}}, nil
		}
	case "focus-text-2":
		if m := q(`^Focus into the (\d)(?:st|nd|rd|th) input textbox\.$`); m != nil {
			return []Step{{Action: "click", Role: "textbox", Nth: int(m[1][0] - '0')}}, nil
		}
	case "enter-text":
		if m := q(`^Enter "(.*)" into the text field and press Submit\.$`); m != nil {
			return []Step{{Action: "type", Role: "textbox", Nth: 1, Text: m[1]}, {Action: "click", Role: "button", Name: "Submit"}}, nil
		}
	case "enter-password":
		if m := q(`^Enter the password "(.*)" into both text fields and press submit\.$`); m != nil {
			return []Step{{Action: "type", Role: "textbox", Nth: 1, Text: m[1]}, {Action: "type", Role: "textbox", Nth: 2, Text: m[1]}, {Action: "click", Role: "button", Name: "Submit"}}, nil
		}
	case "login-user":
		if m := q(`^Enter the username "(.*)" and the password "(.*)" into the text fields and press login\.$`); m != nil {
			return []Step{{Action: "type", Role: "textbox", Nth: 1, Text: m[1]}, {Action: "type", Role: "textbox", Nth: 2, Text: m[2]}, {Action: "click", Role: "button", Name: "Login"}}, nil
		}
	case "click-checkboxes":
		if m := q(`^Select (.*) and click Submit\.$`); m != nil {
			var steps []Step
			if m[1] != "nothing" {
				for _, n := range strings.Split(m[1], ", ") {
					steps = append(steps, Step{Action: "click", Role: "checkbox", Name: n})
				}
			}
			return append(steps, Step{Action: "click", Role: "button", Name: "Submit"}), nil
		}
	case "click-option":
		if m := q(`^Select (.*) and click Submit\.$`); m != nil {
			return []Step{{Action: "click", Role: "radio", Name: m[1]}, {Action: "click", Role: "button", Name: "Submit"}}, nil
		}
	case "choose-list":
		if m := q(`^Select (.*) from the list and click Submit\.$`); m != nil {
			return []Step{{Action: "select", Role: "combobox", Nth: 1, Text: m[1]}, {Action: "click", Role: "button", Name: "Submit"}}, nil
		}
	default:
		return nil, fmt.Errorf("%s: %w", task, ErrNotSolvable)
	}
	return nil, fmt.Errorf("%s: the utterance %q is not in the form the solver knows", task, utterance)
}

// Solvable lists the tasks Plan claims.
var Solvable = []string{"click-button", "click-link", "focus-text", "focus-text-2", "enter-text", "enter-password", "login-user", "click-checkboxes", "click-option", "choose-list"}

var textRoles = map[string]bool{"textbox": true, "searchbox": true}

// Solve lists the task area's elements and runs the steps by number.
func Solve(ctx context.Context, t *Tools, steps []Step) error {
	for _, st := range steps {
		list, err := t.Call(ctx, "browser_list_interactives", map[string]any{"limit": 200})
		if err != nil {
			return err
		}
		n := pick(list, st)
		if n == 0 {
			return fmt.Errorf("no element for %+v in the list", st)
		}
		args := map[string]any{"index": n, "action": st.Action}
		if st.Action != "click" {
			args["text"] = st.Text
		}
		if _, err := t.Call(ctx, "browser_overlay_act", args); err != nil {
			return err
		}
	}
	return nil
}

// pick returns the number of the element a step means in a list result. A
// named element of another role is taken when none of the role has the name
// (a clickable <span> styled as a link is numbered as what it is).
func pick(list map[string]any, st Step) int {
	if n := pickRole(list, st); n != 0 || st.Nth > 0 || st.Role == "" {
		return n
	}
	st.Role = ""
	return pickRole(list, st)
}

func pickRole(list map[string]any, st Step) int {
	items, _ := list["items"].([]any)
	seen := 0
	for _, it := range items {
		m := it.(map[string]any)
		role, _ := m["role"].(string)
		name, _ := m["name"].(string)
		roleOK := st.Role == "" || role == st.Role || (st.Role == "textbox" && (textRoles[role] || m["type"] == "password"))
		if !roleOK {
			continue
		}
		if st.Nth > 0 {
			seen++
			if seen == st.Nth {
				return int(m["number"].(float64))
			}
			continue
		}
		if name == st.Name || strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(st.Name)) {
			return int(m["number"].(float64))
		}
	}
	return 0
}
