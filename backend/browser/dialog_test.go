package browser

import (
	"errors"
	"testing"
)

// Dialogs are handed to the user: the click that opens one returns it, every
// other action is refused while it is open, and only AnswerDialog closes it
// with the user's answer.
func TestDialogsWaitForTheUser(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		button string
		typ    string
		accept bool
		text   *string
		want   string
	}{
		{"Alert", "alert", true, nil, "after alert"},
		{"Delete", "confirm", false, nil, "kept"},
		{"Delete", "confirm", true, nil, "deleted"},
		{"City", "prompt", true, str("Omsk"), "city Omsk"},
		{"City", "prompt", false, nil, "no city"},
	}
	for _, c := range cases {
		t.Run(c.button+"/"+c.typ, func(t *testing.T) {
			s := newSession(t)
			open(t, s, "/dialogs.html")
			r := mustList(t, s, ListOptions{})
			res, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, c.button), Action: "click"})
			if err != nil {
				t.Fatalf("click: %v", err)
			}
			if res.Dialog == nil || res.Dialog.Type != c.typ {
				t.Fatalf("click result dialog = %+v, want a %s dialog", res.Dialog, c.typ)
			}
			// Nothing else runs while the dialog is open, and nothing answered it.
			_, err = s.List(testCtx(t), ListOptions{})
			var de *DialogError
			if !errors.As(err, &de) || de.Dialog.Type != c.typ {
				t.Fatalf("list with an open dialog: err = %v, want DialogError", err)
			}
			if _, err := s.Press(testCtx(t), "Enter"); !errors.As(err, &de) {
				t.Fatalf("press with an open dialog: err = %v, want DialogError", err)
			}
			ans, err := s.AnswerDialog(testCtx(t), c.accept, c.text)
			if err != nil {
				t.Fatalf("answer: %v", err)
			}
			if ans.Answered.Type != c.typ {
				t.Fatalf("answered %+v", ans.Answered)
			}
			if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != c.want {
				t.Fatalf("page says %q after the answer, want %q", got, c.want)
			}
			if _, err := s.AnswerDialog(testCtx(t), true, nil); !errors.Is(err, ErrNoDialog) {
				t.Fatalf("second answer: err = %v, want ErrNoDialog", err)
			}
		})
	}
}

func TestDialogTextOnlyForPrompt(t *testing.T) {
	s := newSession(t)
	open(t, s, "/dialogs.html")
	r := mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Delete"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	text := "yes"
	if _, err := s.AnswerDialog(testCtx(t), true, &text); err == nil {
		t.Fatal("text for a confirm dialog was accepted")
	}
	if d := s.PendingDialog(); d == nil {
		t.Fatal("the refused answer closed the dialog")
	}
	if _, err := s.AnswerDialog(testCtx(t), false, nil); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != "kept" {
		t.Fatalf("page says %q, want kept", got)
	}
}
