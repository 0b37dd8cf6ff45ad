// Package mcp serves the tools registry over the Model Context Protocol, so that
// any MCP client (an editor, a desktop assistant, the MCP Inspector) can use
// Waymark's tools with the same validation and errors as the CLI and the UI.
package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/tools"
)

// NewServer returns an MCP server exposing every tool of reg.
func NewServer(reg *tools.Registry, version string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "waymark", Title: "Waymark", Version: version}, &sdk.ServerOptions{
		Instructions: "Waymark edits a Markdown manuscript by pointer: find an item (Find, CursorNext, Outline), then Read, ReplaceText, InsertAfter, InsertBefore or Delete it. Every edit is saved and undoable (Undo, Redo).",
	})
	for _, t := range reg.Tools() {
		name := t.Name
		s.AddTool(&sdk.Tool{Name: name, Description: t.Description, InputSchema: t.InputSchema},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				var args json.RawMessage
				if req.Params != nil {
					args = req.Params.Arguments
				}
				res, err := reg.Call(ctx, tools.Call{Name: name, Args: args}, tools.Context{})
				if err != nil {
					b, _ := json.Marshal(map[string]string{"error": err.Error()})
					return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
				}
				b, err := json.Marshal(res)
				if err != nil {
					return nil, err
				}
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
			})
	}
	return s
}

// ServeStdio runs the server on standard input and output until the client
// disconnects or ctx ends.
func ServeStdio(ctx context.Context, reg *tools.Registry, version string) error {
	return NewServer(reg, version).Run(ctx, &sdk.StdioTransport{})
}
