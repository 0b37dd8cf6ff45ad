package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// TestProbeModelServerThroughRegistry runs the connection test as a registry
// tool against real HTTP servers speaking the OpenAI protocol: a capable one,
// one that answers tool calls as text and ignores the schema, and one that is
// down; bad arguments are refused with the allowed fields named.
func TestProbeModelServerThroughRegistry(t *testing.T) {
	r := tools.New()
	llm.RegisterTools(r)
	probe := func(args any) (llm.ProbeReport, error) {
		b, _ := json.Marshal(args)
		res, err := r.Call(context.Background(), tools.Call{Name: "ProbeModelServer", Args: b}, tools.Context{})
		if err != nil {
			return llm.ProbeReport{}, err
		}
		return res.(llm.ProbeReport), nil
	}
	good := llmtest.New(t, llmtest.Text("ready"), llmtest.Tool("echo", map[string]string{"word": "ping"}), llmtest.JSON(map[string]string{"answer": "blue"}))
	textual := llmtest.NewWithOptions(t, llmtest.Options{Models: []string{"other"}},
		llmtest.Text("ready"), llmtest.Text(`{"name": "echo", "arguments": {"word": "ping"}}`), llmtest.Text("The sky is blue."))
	cases := []struct {
		name               string
		url, model         string
		chat, tool, schema bool
		summary, detail    string
	}{
		{"everything works", good.URL(), "llmtest", true, true, true, "Everything works: chat, tool calling and JSON schema.", "the server lists 1 model(s)"},
		{"text fallback, no schema", textual.URL(), "other", true, true, false, "Works: chat, tool calling. Does not work: JSON schema.", "the server lists 1 model(s)"},
		{"server down", llmtest.UnreachableURL(t), "llmtest", false, false, false, "Nothing works with this server and model.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := probe(map[string]string{"serverUrl": c.url, "model": c.model})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Chat.OK != c.chat || rep.ToolCalls.OK != c.tool || rep.JSONSchema.OK != c.schema || !strings.HasPrefix(rep.Summary, c.summary) {
				t.Errorf("report: %+v", rep)
			}
			if c.detail != "" && rep.Reachable.Detail != c.detail {
				t.Errorf("reachable: %+v, want %q", rep.Reachable, c.detail)
			}
			if c.detail == "" && (rep.Reachable.OK || rep.Reachable.Detail == "") {
				t.Errorf("a server that is down was reachable: %+v", rep.Reachable)
			}
		})
	}
	if got := good.Requests(); len(got) != 3 || got[2].ResponseFormat == nil {
		t.Errorf("the probe sent %d chat requests (want 3, the last with response_format)", len(got))
	}
	for _, bad := range []struct{ args, want string }{
		{`{"serverUrl": "http://127.0.0.1:1/v1"}`, "model"},
		{`{"serverUrl": "", "model": "m"}`, "serverUrl"},
		{`{"serverUrl": "http://x/v1", "model": "m", "key": "k"}`, `unknown field "key"; allowed fields: apiKey, contextTokens, model, serverUrl`},
	} {
		_, err := r.Call(context.Background(), tools.Call{Name: "ProbeModelServer", Args: json.RawMessage(bad.args)}, tools.Context{})
		if !errors.Is(err, tools.ErrInvalidArgs) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want invalid arguments naming %q", bad.args, err, bad.want)
		}
	}
	if _, err := probe(map[string]string{"serverUrl": "ftp://example.org", "model": "m"}); err == nil {
		t.Error("an ftp address was probed")
	}
}
