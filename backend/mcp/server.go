// Package mcp serves the tools registry over the Model Context Protocol, so that
// any MCP client (an editor, a desktop assistant, the MCP Inspector) can use
// Waymark's tools with the same validation and errors as the CLI and the UI.
package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/tools"
)

// Scope is state that belongs to one MCP session, such as its browser: Bind
// puts it into the context of each of the session's tool calls, and Close
// runs when the session ends.
type Scope interface {
	Bind(ctx context.Context) context.Context
	Close() error
}

// Options configure the server.
type Options struct {
	// NewScope, when set, is called at a session's first tool call; the scope
	// serves all that session's calls and is closed when the session ends.
	NewScope func() Scope
}

const instructions = "Waymark edits a Markdown manuscript by pointer: find an item (Find, CursorNext, Outline), then Read, ReplaceText, InsertAfter, InsertBefore or Delete it. Every edit is saved and undoable (Undo, Redo). " +
	"It also drives a browser for a blind user, strictly by numbers: browser_navigate, browser_list_interactives, then browser_overlay_act(index, click|type|select); list again after the page changes. Each MCP session has its own browser, started on first use and closed when the session ends."

// scopes keeps one Scope per MCP session.
type scopes struct {
	newScope func() Scope
	mu       sync.Mutex
	m        map[*sdk.ServerSession]Scope
	// closing counts the scopes being closed, so that closeAll can wait for
	// them: the process must not exit before a session's browser (and its
	// temporary profile) is gone.
	closing sync.WaitGroup
	done    bool // closeAll ran: a late call gets a closed scope
}

func (s *scopes) bind(ctx context.Context, ss *sdk.ServerSession) context.Context {
	if s.newScope == nil || ss == nil {
		return ctx
	}
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		sc := s.newScope()
		_ = sc.Close()
		return sc.Bind(ctx)
	}
	sc, ok := s.m[ss]
	if !ok {
		sc = s.newScope()
		s.m[ss] = sc
		go func() {
			_ = ss.Wait()
			s.end(ss)
		}()
	}
	s.mu.Unlock()
	return sc.Bind(ctx)
}

// end closes the scope of a session that ended.
func (s *scopes) end(ss *sdk.ServerSession) {
	s.mu.Lock()
	sc, ok := s.m[ss]
	delete(s.m, ss)
	if ok {
		s.closing.Add(1)
	}
	s.mu.Unlock()
	if ok {
		defer s.closing.Done()
		_ = sc.Close()
	}
}

// closeAll closes every scope and waits for those being closed: the server
// has stopped (its input ended, or a signal).
func (s *scopes) closeAll() {
	s.mu.Lock()
	s.done = true
	for ss := range s.m {
		s.mu.Unlock()
		s.end(ss)
		s.mu.Lock()
	}
	s.mu.Unlock()
	s.closing.Wait()
}

// newServer returns an MCP server exposing every tool of reg, and its scopes.
func newServer(reg *tools.Registry, version string, opts ...Options) (*sdk.Server, *scopes, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	sc := &scopes{newScope: o.NewScope, m: map[*sdk.ServerSession]Scope{}}
	s := sdk.NewServer(&sdk.Implementation{Name: "waymark", Title: "Waymark", Version: version}, &sdk.ServerOptions{Instructions: instructions})
	ts, err := reg.Tools()
	if err != nil {
		return nil, nil, err
	}
	for _, t := range ts {
		name := t.Name
		s.AddTool(&sdk.Tool{Name: name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: outputSchema(t)},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				var args json.RawMessage
				if req.Params != nil {
					args = req.Params.Arguments
				}
				ctx = sc.bind(ctx, req.Session)
				res, err := reg.Call(ctx, tools.Call{Name: name, Args: args}, progress(ctx, req))
				if err != nil {
					return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil
				}
				return Reply(res)
			})
	}
	return s, sc, nil
}

// Reply is the MCP reply of a tool's result. Its structured content is the
// whole result (the data the output schema describes, sent once, as JSON);
// its text is what a model reads in most clients, so it is the answer the
// other doors give for the same result (web.ResultText: a browser list's
// numbered lines, not 75 KB of JSON for 500 links), else the failure's
// message for a result that failed, else the result's JSON (the manuscript
// tools, whose CLI door prints their JSON too). A result that says it failed
// (a browser tool's status "error") is an error result: one convention
// (tools.Failed).
func Reply(res any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	msg, failed := tools.Failed(res, nil)
	text, ok := web.ResultText(res)
	switch {
	case ok:
	case failed:
		text = msg
	default:
		text = string(b)
	}
	return &sdk.CallToolResult{IsError: failed, Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(b)}, nil
}

// outputSchema is the tool's output schema when MCP can carry it: MCP asks
// for an object schema (a result that is not an object goes without one).
func outputSchema(t *tools.Tool) any {
	var s struct {
		Type any `json:"type"`
	}
	if len(t.OutputSchema) == 0 || json.Unmarshal(t.OutputSchema, &s) != nil || s.Type != "object" {
		return nil
	}
	return t.OutputSchema
}

// progress maps what a tool reports while it runs (a command's steps, a
// browsing goal's lines) to
// MCP progress notifications, when the client asked for them with a
// progressToken: the message is the event's line (or its kind and tool),
// and _meta["waymark/event"] carries the whole event, as the CLI prints it.
func progress(ctx context.Context, req *sdk.CallToolRequest) tools.Context {
	if req.Params == nil || req.Session == nil {
		return tools.Context{}
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return tools.Context{}
	}
	var mu sync.Mutex
	n := 0.0
	return tools.Context{Progress: func(p tools.Progress) {
		mu.Lock()
		defer mu.Unlock()
		n++
		msg := p.Text
		if msg == "" {
			msg = strings.TrimSpace(p.Event + " " + p.Tool)
		}
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: n, Message: msg,
			Meta: sdk.Meta{"waymark/event": p}})
	}}
}

// ServeStdio serves reg over standard input and output until the client
// disconnects or ctx ends. A malformed frame is answered with a JSON-RPC
// error and the session goes on (see LineTransport). Every session's scope
// (its browser) is closed before it returns, however the session ended.
func ServeStdio(ctx context.Context, reg *tools.Registry, version string, opts ...Options) error {
	s, sc, err := newServer(reg, version, opts...)
	if err != nil {
		return err
	}
	err = s.Run(ctx, stdio())
	sc.closeAll()
	return err
}
