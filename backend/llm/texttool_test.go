package llm_test

import (
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm"
)

func TestParseTextToolCall(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		wantOK   bool
		wantName string
		wantArgs string
	}{
		{"seed format", `function_call: name=browser_navigate args={"url":"http://x"}`, true, "browser_navigate", `{"url":"http://x"}`},
		{"after a progress line", "Opening the search page.\nfunction_call: name=browser_navigate args={\"url\":\"http://x/?q=a b\"}\n", true, "browser_navigate", `{"url":"http://x/?q=a b"}`},
		{"fenced", "```\nfunction_call: name=browser_press args={\"key\": \"k\"}\n```", true, "browser_press", `{"key":"k"}`},
		{"fenced with language", "```json\nfunction_call: name=browser_press args={\"key\":\"Enter\"}\n```", true, "browser_press", `{"key":"Enter"}`},
		{"no args", "function_call: name=browser_back", true, "browser_back", `{}`},
		{"quoted name, arguments=", `Function_Call: name="browser_wait" arguments={"ms": 500}`, true, "browser_wait", `{"ms":500}`},
		{"braces inside strings", `function_call: name=browser_overlay_act args={"index":3,"action":"type","text":"a } b { c"} trailing`, true, "browser_overlay_act", `{"index":3,"action":"type","text":"a } b { c"}`},
		{"cyrillic argument", `function_call: name=browser_find args={"text":"Корзина"}`, true, "browser_find", `{"text":"Корзина"}`},
		{"json object", `{"name":"browser_navigate","arguments":{"url":"http://x"}}`, true, "browser_navigate", `{"url":"http://x"}`},
		{"json object fenced", "I will open it.\n```json\n{\"name\": \"browser_navigate\", \"arguments\": {\"url\": \"http://x\"}}\n```", true, "browser_navigate", `{"url":"http://x"}`},
		{"json arguments as string", `{"name":"browser_scroll","arguments":"{\"by_y\":400}"}`, true, "browser_scroll", `{"by_y":400}`},
		{"llama3 parameters", `{"name": "assistant_done", "parameters": {"reason": "cart checked out"}}`, true, "assistant_done", `{"reason":"cart checked out"}`},
		{"hermes tool_call tags", "<tool_call>\n{\"name\": \"browser_reload\", \"arguments\": {}}\n</tool_call>", true, "browser_reload", `{}`},
		{"wrapped function_call object", `{"function_call":{"name":"browser_extract","arguments":"{\"mode\":\"summary\"}"}}`, true, "browser_extract", `{"mode":"summary"}`},
		{"null arguments", `{"name":"browser_close_banners","arguments":null}`, true, "browser_close_banners", `{}`},
		{"plain text", "The page is open; nothing else to do.", false, "", ""},
		{"cursor action is not a call", `{"action":"cursor_next"}`, false, "", ""},
		{"object with a name only", `{"name":"Ada Lovelace","born":1815}`, false, "", ""},
		{"nested data object is not a call", `{"action":"target_set_add","data":{"name":"x","arguments":{}}}`, false, "", ""},
		{"broken args", `function_call: name=browser_navigate args={"url":`, false, "", ""},
		{"empty", "", false, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call, ok := llm.ParseTextToolCall(tc.text)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, call %+v", ok, call)
			}
			if !ok {
				return
			}
			if call.Name != tc.wantName || string(call.Arguments) != tc.wantArgs {
				t.Errorf("got %s %s, want %s %s", call.Name, call.Arguments, tc.wantName, tc.wantArgs)
			}
			if !strings.HasPrefix(call.ID, "call_") {
				t.Errorf("id = %q", call.ID)
			}
		})
	}
}

func TestEstimateTokens(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("word ", 80), 100}, // 400 bytes of Latin: 1 per 4 bytes
		{"привет", 6},                      // 12 bytes of Cyrillic: 1 per 2 bytes
		{strings.Repeat("Мир", 100), 300},  // 600 bytes
		{"日本語", 3},                         // 1 per CJK character
		{"Hello, мир", 5},                  // 7 Latin bytes → 1.75, 3 Cyrillic letters → 3; rounded up
		{"\xff\xfe\xfd\xfc", 1},            // invalid UTF-8 counts like ASCII
		{`{"action":"cursor_next","pointers":[]}`, 10}, // 38 bytes
	}
	for _, tc := range cases {
		if got := llm.EstimateTokens(tc.text); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
