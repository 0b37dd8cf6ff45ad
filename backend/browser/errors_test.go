package browser

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

// Every kind has its English text, and the kinds are numbered without a
// gap up to the last (a door can list them all).
func TestEveryErrKindHasItsText(t *testing.T) {
	for k := KindInvalid; k <= KindScript; k++ {
		if _, ok := errKinds[k]; !ok {
			t.Errorf("kind %d has no text", k)
		}
	}
	if len(errKinds) != int(KindScript)+1 {
		t.Errorf("%d texts for %d kinds", len(errKinds), KindScript+1)
	}
}

// An *Error keeps the tools' convention and its cause: an invalid argument
// is tools.ErrInvalidArgs (a Go error, not a failed result) with the
// prefix in its text, and the error under it is still found.
func TestErrorIdentity(t *testing.T) {
	cause := &fs.PathError{Op: "stat", Path: "/tmp/none.pdf", Err: syscall.ENOENT}
	for _, c := range []struct {
		err     *Error
		text    string
		invalid bool
	}{
		{fail(KindDisabled, 6, Label{Role: "combobox", Name: "Language"}), `element 6 (combobox "Language") is disabled`, false},
		{fail(KindDisabled, 6, Label{Role: "button"}), `element 6 (button) is disabled`, false},
		{failWith(KindFileStat, cause, "/tmp/none.pdf"), `invalid arguments: file "/tmp/none.pdf": stat /tmp/none.pdf: no such file or directory`, true},
		{fail(KindNoTab, 4, Tabs{{Index: 1, Title: "Home"}}), "there is no tab 4: the tabs are 1 “Home”", false},
		{fail(KindNoTabToClose, Tabs(nil)), "no tab to close: no tabs are open", false},
		{invalid("key %q not understood", "Hyper").(*Error), `invalid arguments: key "Hyper" not understood`, true},
	} {
		if got := c.err.Error(); got != c.text {
			t.Errorf("got %q, want %q", got, c.text)
		}
		if got := errors.Is(c.err, tools.ErrInvalidArgs); got != c.invalid {
			t.Errorf("%q: invalid arguments %v, want %v", c.text, got, c.invalid)
		}
		if got, want := c.err.Message(), strings.TrimPrefix(c.text, "invalid arguments: "); got != want {
			t.Errorf("Message %q, want %q", got, want)
		}
	}
	if err := failWith(KindFileStat, cause, "/tmp/none.pdf"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cause is lost: %v", err)
	}
}

// What covers an element is named without its id, with its name unquoted.
func TestCoverLabel(t *testing.T) {
	for in, want := range map[Cover]Label{
		`div "Cookies"#consent`:    {Role: "div", Name: "Cookies"},
		`div#veil`:                 {Role: "div"},
		`button "Say \"yes\""`:     {Role: "button", Name: `Say "yes"`},
		`a "Read #3, then more"#x`: {Role: "a", Name: "Read #3, then more"},
	} {
		if got := in.Label(); got != want {
			t.Errorf("%s: %+v, want %+v", in, got, want)
		}
	}
}
