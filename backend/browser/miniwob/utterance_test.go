package miniwob

import (
	"errors"
	"reflect"
	"testing"
)

func TestPlanFor(t *testing.T) {
	submit := click(button("Submit"))
	cases := []struct {
		task, utterance string
		want            Plan
	}{
		{"click-button", `Click on the "Okay" button.`, steps(click(button("Okay")))},
		{"unicode-test", `Click on the "确定" button.`, steps(click(button("确定")))},
		{"click-button-sequence", `Click button ONE, then click button TWO.`, steps(click(button("ONE")), click(button("TWO")))},
		{"click-test", `Click the button.`, steps(click(nth("button", 1)))},
		{"click-test-2", `Click button ONE.`, steps(click(button("ONE")))},
		{"click-link", `Click on the link "amet".`, steps(click(Target{Role: "link", Name: "amet"}))},
		{"click-dialog", `Close the dialog box by clicking the "x".`, steps(click(button("Close")))},
		{"click-dialog-2", `Click the button in the dialog box labeled "OK".`, steps(click(button("OK")))},
		{"click-dialog-2", `Click the button in the dialog box labeled "x".`, steps(click(button("Close")))},
		{"click-tab", `Click on Tab #3.`, steps(click(Target{Role: "tab", Name: "Tab #3"}))},
		{"click-tab-2-hard", `Switch between the tabs to find and click on the link "sit".`,
			steps(Step{Action: "click", Target: Target{Name: "sit"}, Reveal: Target{Role: "tab"}})},
		{"click-collapsible", `Expand the section below and click submit.`, steps(Step{Action: "click", Target: nth("tab", 1), Settle: slide}, submit)},
		{"click-collapsible-nodelay", `Expand the section below and click submit.`, steps(click(nth("tab", 1)), submit)},
		{"click-collapsible-2-nodelay", `Expand the sections below, to find and click on the link "velit.".`,
			steps(Step{Action: "click", Target: Target{Name: "velit."}, Reveal: Target{Role: "tab"}})},
		{"navigate-tree", `Navigate through the file tree. Find and click on the folder or file named "Cristin".`,
			steps(Step{Action: "click", Target: Target{Name: "Cristin"}, Reveal: Target{Role: "clickable", Tag: "span"}})},
		{"focus-text", `Focus into the textbox.`, steps(click(nth("textbox", 1)))},
		{"focus-text-2", `Focus into the 3rd input textbox.`, steps(click(nth("textbox", 3)))},
		{"enter-text", `Enter "Kasie" into the text field and press Submit.`, steps(typeInto(1, "Kasie"), submit)},
		{"enter-text-dynamic", `Enter "" into the text field and press Submit.`, steps(typeInto(1, ""), submit)},
		{"enter-text-2", `Type "ASHLEA" in all lower case letters in the text input and press Submit.`, steps(typeInto(1, "ashlea"), submit)},
		{"enter-text-2", `Type "tora" in all upper case letters in the text input and press Submit.`, steps(typeInto(1, "TORA"), submit)},
		{"enter-time", `Enter 2:10 PM as the time and press submit.`, steps(typeInto(1, "0210P"), submit)},
		{"enter-time", `Enter 11:05 AM as the time and press submit.`, steps(typeInto(1, "1105A"), submit)},
		{"enter-date", `Enter 12/25/2015 as the date and hit submit.`, steps(typeInto(1, "12252015"), submit)},
		{"enter-password", `Enter the password "x1" into both text fields and press submit.`, steps(typeInto(1, "x1"), typeInto(2, "x1"), submit)},
		{"login-user", `Enter the username "kiera" and the password "x1" into the text fields and press login.`,
			steps(typeInto(1, "kiera"), typeInto(2, "x1"), click(button("Login")))},
		// The utterance's HTML (<span class="bold">) is gone in its text; extra
		// white space is folded.
		{"login-user-popup", "Enter the  username \"lyda\" and the password \"vPAF\"\ninto the text fields and press login.",
			Plan{Steps: []Step{typeInto(1, "lyda"), typeInto(2, "vPAF"), click(nth("button", 1))}, Dismiss: "Cancel"}},
		{"click-checkboxes", `Select nothing and click Submit.`, steps(submit)},
		{"click-checkboxes-large", `Select ab, cd and click Submit.`,
			steps(click(Target{Role: "checkbox", Name: "ab"}), click(Target{Role: "checkbox", Name: "cd"}), submit)},
		{"click-option", `Select Lk3 and click Submit.`, steps(click(Target{Role: "radio", Name: "Lk3"}), submit)},
		{"choose-list", `Select Guam from the list and click Submit.`, steps(Step{Action: "select", Target: nth("combobox", 1), Text: "Guam"}, submit)},
		{"click-scroll-list", `Select Margi, Tanzania from the scroll list and click Submit.`,
			steps(Step{Action: "select", Target: nth("listbox", 1), Text: "Margi"}, Step{Action: "select", Target: nth("listbox", 1), Text: "Tanzania"}, submit)},
		{"click-widget", `Click on a "textarea" widget.`, steps(click(Target{Role: "textbox", Tag: "textarea", Nth: 1}))},
		{"click-widget", `Click on a "radio" widget.`, steps(click(nth("radio", 1)))},
		{"use-autocomplete", `Enter an item that starts with "Nor" and ends with "rway".`,
			steps(typeInto(1, "Nor"), click(Target{Role: suggestionRoles, Prefix: "Nor", Suffix: "rway"}), submit)},
		{"use-autocomplete-nodelay", `Enter an item that starts with "Sr".`,
			steps(typeInto(1, "Sr"), click(Target{Role: suggestionRoles, Prefix: "Sr"}), submit)},
		{"form-sequence-2", `Check the 2nd radio button and enter the number "-7" into the 3rd textbox.`,
			steps(click(nth("radio", 2)), typeInto(3, "-7"), submit)},
		{"search-engine", `Use the textbox to enter "Livia" and press "Search", then find and click the 7th search result.`,
			steps(typeInto(1, "Livia"), click(button("Search")),
				Step{Action: "click", Target: Target{Role: "link", Nth: 7, SkipPager: true}, Next: Target{Role: "link", Name: ">"}})},
		{"use-spinner", `Select -2 with the spinner and hit Submit.`, steps(Step{Action: "adjust", Target: nth("spinbutton", 1), Text: "-2"}, submit)},
	}
	for _, c := range cases {
		got, err := PlanFor(c.task, c.utterance)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("PlanFor(%s, %q)\n got %v, %v\nwant %v", c.task, c.utterance, got, err, c.want)
		}
	}
}

func TestPlanForRefuses(t *testing.T) {
	cases := []struct {
		task, utterance string
		want            error
	}{
		// Tasks the built-in engine does not claim need a model.
		{"book-flight", "Book the shortest one-way flight from: LEB to: RDG on 12/06/2016.", ErrNotSolvable},
		{"click-checkboxes-soft", "Select words similar to big and click Submit.", ErrNotSolvable},
		{"choose-date", "Select 05/06/2014 as the date and hit submit.", ErrNotSolvable},
		// Claimed tasks with utterances in a form the solver does not know fail
		// instead of guessing.
		{"click-button", "Press the red thing.", ErrUtterance},
		{"click-widget", `Click on a "slider" widget.`, ErrUtterance},
	}
	for _, c := range cases {
		_, err := PlanFor(c.task, c.utterance)
		if !errors.Is(err, c.want) {
			t.Errorf("PlanFor(%s, %q) = %v, want %v", c.task, c.utterance, err, c.want)
		}
	}
}

func TestSolvableIsSortedAndClaimed(t *testing.T) {
	s := Solvable()
	if len(s) < 30 {
		t.Errorf("only %d tasks claimed: %v", len(s), s)
	}
	for i, task := range s {
		if i > 0 && s[i-1] >= task {
			t.Errorf("not sorted or repeated at %q", task)
		}
		if _, err := PlanFor(task, ""); errors.Is(err, ErrNotSolvable) {
			t.Errorf("%s is listed but not claimed", task)
		}
	}
}

func TestPick(t *testing.T) {
	yes, no := true, false
	items := []item{
		{Number: 1, ID: "a", Role: "tab", Name: "Tab #1", Checked: &yes},
		{Number: 2, ID: "b", Role: "tab", Name: "Tab #2", Checked: &no},
		{Number: 3, ID: "c", Role: "clickable", Tag: "ul", Name: "Norfolk IslandNorway"},
		{Number: 4, ID: "d", Role: "clickable", Tag: "li", Name: "Norfolk Island"},
		{Number: 5, ID: "e", Role: "clickable", Tag: "li", Name: "Norway"},
		{Number: 6, ID: "f", Role: "clickable", Tag: "span", Name: "Sit"},
		{Number: 7, ID: "g", Role: "textbox", Tag: "input", Name: "user"},
		{Number: 8, ID: "h", Role: "textbox", Tag: "input", Type: "password", Name: "pass"},
		{Number: 9, ID: "i", Role: "link", Name: "Livia"},
		{Number: 10, ID: "j", Role: "link", Name: "2"},
		{Number: 11, ID: "k", Role: "link", Name: ">"},
		{Number: 12, ID: "l", Role: "button", Name: "Submit"},
	}
	cases := []struct {
		t    Target
		fold bool
		want int
	}{
		{Target{Role: "tab", Name: "Tab #2"}, false, 2},
		{Target{Role: suggestionRoles, Prefix: "Nor", Suffix: "way"}, false, 5}, // not the menu that runs them together
		{Target{Role: suggestionRoles, Prefix: "Norf"}, false, 4},
		{Target{Name: "sit"}, false, 0}, // case differs: only when folding
		{Target{Name: "sit"}, true, 6},
		{Target{Role: "link", Name: "sit"}, true, 6}, // a clickable span named so, for want of a link
		{Target{Role: "link", Name: "sit"}, false, 0},
		{Target{Role: "textbox", Nth: 2}, false, 8}, // password fields are text boxes
		{Target{Role: "link", Nth: 2, SkipPager: true}, false, 0},
		{Target{Role: "link", Nth: 1, SkipPager: true}, false, 9},
		{Target{Role: "button", Nth: 1}, false, 12},
		{Target{Role: "button", Name: "Cancel"}, true, 0},
	}
	for _, c := range cases {
		got := 0
		if it := pick(items, c.t, c.fold); it != nil {
			got = it.Number
		}
		if got != c.want {
			t.Errorf("pick(%s, fold=%v) = %d, want %d", c.t, c.fold, got, c.want)
		}
	}
	if r := nextReveal(items, Target{Role: "tab"}, map[string]bool{}); r == nil || r.Number != 2 {
		t.Errorf("the tab to open first: %+v (the shown one is skipped)", r)
	}
	if r := nextReveal(items, Target{Role: "tab"}, map[string]bool{"b": true}); r != nil {
		t.Errorf("every tab opened, yet %+v", r)
	}
	if n := count(items, Target{Role: "link", SkipPager: true}); n != 1 {
		t.Errorf("%d results among the links, want 1", n)
	}
}
