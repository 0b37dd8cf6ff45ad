package miniwob

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ErrNotSolvable is returned for a task the built-in solver does not claim:
// it needs a model server.
var ErrNotSolvable = errors.New("not solvable without a model")

// ErrUtterance is returned when a claimed task's utterance is not in a form
// the solver knows (click-menu-2's icon variant, say): the episode fails
// instead of being guessed.
var ErrUtterance = errors.New("utterance not understood")

// Target says which element of a list a step means. The solver compares it
// with what browser_list_interactives reports (role, tag, accessible name,
// checked state) and acts on the number of the first element that fits.
type Target struct {
	// Role is the role wanted: "" any, or alternatives joined by "|";
	// "textbox" also takes searchboxes and password fields.
	Role string
	Tag  string // "" any
	// Name is the accessible name wanted: exactly (white space normalised),
	// or ignoring case when no element has it exactly.
	Name string
	// Prefix and Suffix ask for a name that starts and ends so (case matters).
	Prefix, Suffix string
	// Nth asks for the Nth element of the role (from 1) instead of a name.
	Nth int
	// SkipPager leaves out pager controls (page numbers, "<", ">", "Next"…):
	// the Nth search result is the Nth link that is not one.
	SkipPager bool
}

// IsZero reports whether t asks for nothing (a step with no Reveal).
func (t Target) IsZero() bool { return t == Target{} }

func (t Target) String() string {
	var b strings.Builder
	b.WriteString(orAny(t.Role))
	if t.Tag != "" {
		b.WriteString("<" + t.Tag + ">")
	}
	switch {
	case t.Nth > 0:
		fmt.Fprintf(&b, " #%d", t.Nth)
	case t.Prefix != "" || t.Suffix != "":
		fmt.Fprintf(&b, " %q…%q", t.Prefix, t.Suffix)
	default:
		fmt.Fprintf(&b, " %q", t.Name)
	}
	if t.SkipPager {
		b.WriteString(" (not pager)")
	}
	return b.String()
}

func orAny(s string) string {
	if s == "" {
		return "any"
	}
	return s
}

// Step is one action by number: list, pick the element Target means, act.
type Step struct {
	// Action is click, type or select (browser_overlay_act), or adjust: click
	// the element, then press the arrow keys (browser_press) until the value
	// the list shows for it is Text.
	Action string
	Target Target
	Text   string // what type types, select picks or adjust reaches
	// Reveal names the elements that may hide the target (tabs, accordion
	// sections, tree folders): while the target is missing, the solver clicks
	// the next of them it has not opened yet and lists again.
	Reveal Target
	// Settle is how long the page animates after the action (a section
	// sliding open moves what is below it): the solver waits that long
	// (browser_wait) before the next step, so it does not click a moving
	// target.
	Settle time.Duration
	// Next is the control that shows the next page of results: while the
	// target is the Nth of more elements than the page lists, the solver
	// counts off the page's ones and clicks it.
	Next Target
}

func (s Step) String() string {
	out := s.Action + " " + s.Target.String()
	if s.Text != "" {
		out += fmt.Sprintf(" text %q", s.Text)
	}
	if !s.Reveal.IsZero() {
		out += " revealing " + s.Reveal.String()
	}
	if !s.Next.IsZero() {
		out += " paging with " + s.Next.String()
	}
	if s.Settle > 0 {
		out += fmt.Sprintf(" then wait %v", s.Settle)
	}
	return out
}

// Plan is what the solver does for one utterance.
type Plan struct {
	Steps []Step
	// Dismiss is the name of a button that closes an interruption (a pop-up
	// that disables the form): when a step fails and such a button is listed,
	// it is clicked by number and the step tried once more.
	Dismiss string
}

// family is one kind of task: the tasks that share an utterance form, the
// form, and how its parts become steps.
type family struct {
	tasks []string
	form  *regexp.Regexp
	plan  func(m []string) Plan
}

func click(t Target) Step { return Step{Action: "click", Target: t} }

func button(name string) Target { return Target{Role: "button", Name: name} }

func nth(role string, n int) Target { return Target{Role: role, Nth: n} }

func typeInto(n int, text string) Step {
	return Step{Action: "type", Target: nth("textbox", n), Text: text}
}

func steps(s ...Step) Plan { return Plan{Steps: s} }

// slide is a little more than jQuery's default animation (400 ms).
const slide = 450 * time.Millisecond

// closeName is the accessible name of a jQuery UI dialog's "x": the
// screen-reader name of the button the utterance calls "x".
const closeName = "Close"

// families are the task families the built-in engine solves by numbers.
var families = []family{
	{[]string{"click-button", "unicode-test"}, regexp.MustCompile(`^Click on the "(.+)" button\.$`),
		func(m []string) Plan { return steps(click(button(m[1]))) }},
	{[]string{"click-button-sequence"}, regexp.MustCompile(`^Click button (\S+), then click button (\S+)\.$`),
		func(m []string) Plan { return steps(click(button(m[1])), click(button(m[2]))) }},
	{[]string{"click-test-2", "click-test-transfer"}, regexp.MustCompile(`^Click button (\S+)\.$`),
		func(m []string) Plan { return steps(click(button(m[1]))) }},
	{[]string{"click-test"}, regexp.MustCompile(`^Click the button\.$`),
		func(m []string) Plan { return steps(click(nth("button", 1))) }},
	{[]string{"click-link"}, regexp.MustCompile(`^Click on the link "(.+)"\.$`),
		func(m []string) Plan { return steps(click(Target{Role: "link", Name: m[1]})) }},
	{[]string{"click-dialog"}, regexp.MustCompile(`^Close the dialog box by clicking the "x"\.$`),
		func(m []string) Plan { return steps(click(button(closeName))) }},
	{[]string{"click-dialog-2"}, regexp.MustCompile(`^Click the button in the dialog box labeled "(.+)"\.$`),
		func(m []string) Plan {
			if m[1] == "x" {
				return steps(click(button(closeName)))
			}
			return steps(click(button(m[1])))
		}},
	{[]string{"click-tab"}, regexp.MustCompile(`^Click on (Tab #\d+)\.$`),
		func(m []string) Plan { return steps(click(Target{Role: "tab", Name: m[1]})) }},
	{[]string{"click-tab-2", "click-tab-2-easy", "click-tab-2-hard"},
		regexp.MustCompile(`^Switch between the tabs to find and click on the link "(.+)"\.$`),
		func(m []string) Plan {
			return steps(Step{Action: "click", Target: Target{Name: m[1]}, Reveal: Target{Role: "tab"}})
		}},
	{[]string{"click-collapsible"}, regexp.MustCompile(`^Expand the section below and click submit\.$`),
		func(m []string) Plan {
			open := click(nth("tab", 1))
			open.Settle = slide
			return steps(open, click(button("Submit")))
		}},
	{[]string{"click-collapsible-nodelay"}, regexp.MustCompile(`^Expand the section below and click submit\.$`),
		func(m []string) Plan { return steps(click(nth("tab", 1)), click(button("Submit"))) }},
	{[]string{"click-collapsible-2", "click-collapsible-2-nodelay"},
		regexp.MustCompile(`^Expand the sections below, to find and click on the link "(.+)"\.$`),
		func(m []string) Plan {
			return steps(Step{Action: "click", Target: Target{Name: m[1]}, Reveal: Target{Role: "tab"}})
		}},
	{[]string{"navigate-tree"},
		regexp.MustCompile(`^Navigate through the file tree\. Find and click on the folder or file named "(.+)"\.$`),
		// Folders are the clickable labels (<span>) of the tree's items; a
		// file's item is clicked only once it is the target.
		func(m []string) Plan {
			return steps(Step{Action: "click", Target: Target{Name: m[1]}, Reveal: Target{Role: "clickable", Tag: "span"}})
		}},
	{[]string{"focus-text"}, regexp.MustCompile(`^Focus into the textbox\.$`),
		func(m []string) Plan { return steps(click(nth("textbox", 1))) }},
	{[]string{"focus-text-2"}, regexp.MustCompile(`^Focus into the (\d+)(?:st|nd|rd|th) input textbox\.$`),
		func(m []string) Plan { return steps(click(nth("textbox", atoi(m[1])))) }},
	{[]string{"enter-text", "enter-text-dynamic"}, regexp.MustCompile(`^Enter "(.*)" into the text field and press Submit\.$`),
		func(m []string) Plan { return steps(typeInto(1, m[1]), click(button("Submit"))) }},
	{[]string{"enter-text-2"},
		regexp.MustCompile(`^Type "(.*)" in all (upper|lower) case letters in the text input and press Submit\.$`),
		func(m []string) Plan {
			text := strings.ToLower(m[1])
			if m[2] == "upper" {
				text = strings.ToUpper(m[1])
			}
			return steps(typeInto(1, text), click(button("Submit")))
		}},
	{[]string{"enter-time"}, regexp.MustCompile(`^Enter (\d{1,2}):(\d\d) (A|P)M as the time and press submit\.$`),
		// A time field takes its hour, minutes and AM/PM keyed in one after
		// the other: "2:10 PM" is typed 0210P.
		func(m []string) Plan {
			return steps(typeInto(1, fmt.Sprintf("%02d%s%s", atoi(m[1]), m[2], m[3])), click(button("Submit")))
		}},
	{[]string{"enter-date"}, regexp.MustCompile(`^Enter (\d\d)/(\d\d)/(\d{4}) as the date and hit submit\.$`),
		// A date field (en-US: month, day, year) takes its parts keyed in
		// one after the other: "12/25/2015" is typed 12252015.
		func(m []string) Plan {
			return steps(typeInto(1, m[1]+m[2]+m[3]), click(button("Submit")))
		}},
	{[]string{"form-sequence-2"},
		regexp.MustCompile(`^Check the (\d+)(?:st|nd|rd|th) radio button and enter the number "(-?\d+)" into the (\d+)(?:st|nd|rd|th) textbox\.$`),
		func(m []string) Plan {
			return steps(click(nth("radio", atoi(m[1]))), typeInto(atoi(m[3]), m[2]), click(button("Submit")))
		}},
	{[]string{"search-engine"},
		regexp.MustCompile(`^Use the textbox to enter "(.+)" and press "Search", then find and click the (\d+)(?:st|nd|rd|th) search result\.$`),
		func(m []string) Plan {
			return steps(typeInto(1, m[1]), click(button("Search")),
				Step{Action: "click", Target: Target{Role: "link", Nth: atoi(m[2]), SkipPager: true}, Next: Target{Role: "link", Name: ">"}})
		}},
	{[]string{"use-spinner"}, regexp.MustCompile(`^Select (-?\d+) with the spinner and hit Submit\.$`),
		func(m []string) Plan {
			return steps(Step{Action: "adjust", Target: nth("spinbutton", 1), Text: m[1]}, click(button("Submit")))
		}},
	{[]string{"enter-password"}, regexp.MustCompile(`^Enter the password "(.*)" into both text fields and press submit\.$`),
		func(m []string) Plan { return steps(typeInto(1, m[1]), typeInto(2, m[1]), click(button("Submit"))) }},
	{[]string{"login-user"},
		regexp.MustCompile(`^Enter the username "(.*)" and the password "(.*)" into the text fields and press login\.$`),
		func(m []string) Plan { return steps(typeInto(1, m[1]), typeInto(2, m[2]), click(button("Login"))) }},
	{[]string{"login-user-popup"},
		regexp.MustCompile(`^Enter the username "(.*)" and the password "(.*)" into the text fields and press login\.$`),
		// The form's only button logs in (it reads "OK"); a session pop-up
		// may disable the form once a field takes the focus: Cancel closes it.
		func(m []string) Plan {
			return Plan{Steps: []Step{typeInto(1, m[1]), typeInto(2, m[2]), click(nth("button", 1))}, Dismiss: "Cancel"}
		}},
	{[]string{"click-checkboxes", "click-checkboxes-large", "click-checkboxes-transfer"},
		regexp.MustCompile(`^Select (.*) and click Submit\.$`),
		func(m []string) Plan {
			var p Plan
			if m[1] != "nothing" {
				for _, n := range strings.Split(m[1], ", ") {
					p.Steps = append(p.Steps, click(Target{Role: "checkbox", Name: n}))
				}
			}
			p.Steps = append(p.Steps, click(button("Submit")))
			return p
		}},
	{[]string{"click-option"}, regexp.MustCompile(`^Select (.*) and click Submit\.$`),
		func(m []string) Plan { return steps(click(Target{Role: "radio", Name: m[1]}), click(button("Submit"))) }},
	{[]string{"choose-list"}, regexp.MustCompile(`^Select (.*) from the list and click Submit\.$`),
		func(m []string) Plan {
			return steps(Step{Action: "select", Target: nth("combobox", 1), Text: m[1]}, click(button("Submit")))
		}},
	{[]string{"click-scroll-list"}, regexp.MustCompile(`^Select (.*) from the scroll list and click Submit\.$`),
		func(m []string) Plan {
			var p Plan
			for _, n := range strings.Split(m[1], ", ") {
				p.Steps = append(p.Steps, Step{Action: "select", Target: nth("listbox", 1), Text: n})
			}
			p.Steps = append(p.Steps, click(button("Submit")))
			return p
		}},
	{[]string{"click-widget"}, regexp.MustCompile(`^Click on a "(radio|checkbox|text|textarea|button)" widget\.$`),
		func(m []string) Plan {
			t := map[string]Target{
				"radio":    nth("radio", 1),
				"checkbox": nth("checkbox", 1),
				"text":     {Role: "textbox", Tag: "input", Nth: 1},
				"textarea": {Role: "textbox", Tag: "textarea", Nth: 1},
				"button":   nth("button", 1),
			}[m[1]]
			return steps(click(t))
		}},
	{[]string{"use-autocomplete", "use-autocomplete-nodelay"},
		regexp.MustCompile(`^Enter an item that starts with "(.+?)"(?: and ends with "(.+)")?\.$`),
		// Type the beginning, then click the suggestion that fits by number.
		func(m []string) Plan {
			return steps(typeInto(1, m[1]), click(Target{Role: suggestionRoles, Prefix: m[1], Suffix: m[2]}), click(button("Submit")))
		}},
}

// suggestionRoles are the roles an autocomplete's suggestions are numbered
// with: ARIA menu items or options, or plain clickable list items.
const suggestionRoles = "menuitem|option|clickable"

// atoi reads a number the utterance's form has already checked.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// PlanFor turns a task's utterance into a plan, for the task families the
// built-in engine solves by numbers. A task it does not claim gives
// ErrNotSolvable; an utterance of a claimed task in an unknown form gives
// ErrUtterance.
func PlanFor(task, utterance string) (Plan, error) {
	u := strings.Join(strings.Fields(utterance), " ")
	claimed := false
	for _, f := range families {
		if !contains(f.tasks, task) {
			continue
		}
		claimed = true
		if m := f.form.FindStringSubmatch(u); m != nil {
			return f.plan(m), nil
		}
	}
	if !claimed {
		return Plan{}, fmt.Errorf("%s: %w", task, ErrNotSolvable)
	}
	return Plan{}, fmt.Errorf("%s: %q: %w", task, utterance, ErrUtterance)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Solvable lists the tasks the built-in solver claims, sorted.
func Solvable() []string {
	var out []string
	for _, f := range families {
		for _, t := range f.tasks {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}
