package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// DialogArgs are browser_dialog's arguments.
type DialogArgs struct {
	Accept bool    `json:"accept" jsonschema:"true: OK (or leave the page); false: Cancel (or stay)"`
	Text   *string `json:"text,omitempty" jsonschema:"the user's answer to a prompt dialog"`
}

// DialogRef is the typed handle on browser_dialog.
var DialogRef = tools.RefTo[DialogArgs, Result[DialogResult]]("browser_dialog")

// dialogTool is browser_dialog: it answers the page's JavaScript dialog as the user said.
func dialogTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, DialogRef, "Answer the JavaScript dialog (alert, confirm, prompt or leave-page question) the page opened. Dialogs are the user's to answer: ask the user first and pass their answer; never answer one on your own. accept=true is OK / leave, accept=false is Cancel / stay; text is the answer to a prompt.", (*Session).toolDialog)
}

func (s *Session) toolDialog(ctx context.Context, a DialogArgs) (*DialogResult, error) {
	return s.AnswerDialog(ctx, a.Accept, a.Text)
}
