package main

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// DesktopApp is what the window's JavaScript calls. It is a thin adapter: the
// window reaches the same tools registry as the model, MCP and the CLI.
type DesktopApp struct {
	ctx context.Context
	ws  *manuscript.Workspace
	reg *tools.Registry
}

// OutlineHeading is one heading of the outline panel.
type OutlineHeading struct {
	Index int    `json:"index"`
	Level int    `json:"level"`
	Text  string `json:"text"`
	Words int    `json:"words"`
}

// ManuscriptView is what the window shows of the open manuscript.
type ManuscriptView struct {
	Path       string           `json:"path"`
	Name       string           `json:"name"`
	Markdown   string           `json:"markdown"`
	SizeBytes  int              `json:"sizeBytes"`
	Items      int              `json:"items"`
	Revision   int64            `json:"revision"`
	Headings   []OutlineHeading `json:"headings"`
	TotalWords int              `json:"totalWords"`
}

func (a *DesktopApp) startup(ctx context.Context) { a.ctx = ctx }

// context is the app's context (the window's, or Background before startup
// and in the UI tier).
func (a *DesktopApp) context() context.Context {
	if a.ctx == nil {
		return context.Background()
	}
	return a.ctx
}

// Manuscript returns the open manuscript with its outline.
func (a *DesktopApp) Manuscript() (ManuscriptView, error) {
	m, err := a.ws.Current()
	if err != nil {
		return ManuscriptView{}, err
	}
	v := ManuscriptView{Path: m.Path, Name: filepath.Base(m.Path), Headings: []OutlineHeading{}}
	err = m.Do(func(d *document.Document) error {
		v.Markdown, v.SizeBytes, v.Items, v.Revision = string(d.Source()), len(d.Source()), d.Len(), d.Rev()
		return nil
	})
	if err != nil {
		return v, err
	}
	out, err := a.reg.Call(a.context(), tools.Call{Name: "Outline"}, tools.Context{})
	if err != nil {
		return v, err
	}
	b, _ := json.Marshal(out)
	var o struct {
		Headings   []OutlineHeading `json:"headings"`
		TotalWords int              `json:"totalWords"`
	}
	_ = json.Unmarshal(b, &o)
	v.Headings, v.TotalWords = o.Headings, o.TotalWords
	return v, nil
}

// Call runs any tool of the registry with JSON arguments and returns its JSON result.
func (a *DesktopApp) Call(tool string, args string) (string, error) {
	res, err := a.reg.Call(a.context(), tools.Call{Name: tool, Args: json.RawMessage(args)}, tools.Context{})
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res)
	return string(b), err
}
