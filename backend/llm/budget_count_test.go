package llm

import (
	"encoding/json"
	"testing"
)

// TestTokenCount: the tokenizer's answer is counted without decoding each
// token, the same as decoding would count, whatever the pieces hold.
func TestTokenCount(t *testing.T) {
	cases := []struct {
		body string
		want int
	}{
		{`{"tokens":[]}`, 0},
		{`{"tokens":[ ]}`, 0},
		{`{"tokens":[42]}`, 1},
		{`{"tokens":[1, 2,3 ,4]}`, 4},
		{`{"tokens":[{"id":1,"piece":","},{"id":2,"piece":"]"},{"id":3,"piece":"\"[,"}]}`, 3},
		{`{"tokens":[{"id":9,"piece":[226,128]},{"id":10,"piece":"\\"}]}`, 2},
		{`{"tokens":["Наташа", "«", ","]}`, 3},
	}
	for _, c := range cases {
		var out struct {
			Tokens *tokenCount `json:"tokens"`
		}
		if err := json.Unmarshal([]byte(c.body), &out); err != nil || out.Tokens == nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		var decoded struct {
			Tokens []json.RawMessage `json:"tokens"`
		}
		_ = json.Unmarshal([]byte(c.body), &decoded)
		if int(*out.Tokens) != c.want || len(decoded.Tokens) != c.want {
			t.Errorf("%s: counted %d, decoding counts %d, want %d", c.body, *out.Tokens, len(decoded.Tokens), c.want)
		}
	}
	for _, bad := range []string{`{"tokens":7}`, `{"tokens":"a,b"}`, `{"tokens":{"a":1}}`} {
		var out struct {
			Tokens *tokenCount `json:"tokens"`
		}
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("%s was taken for a list of tokens (%d)", bad, *out.Tokens)
		}
	}
}
