package llm

import "unicode/utf8"

// EstimateTokens approximates how many tokens a model's tokenizer makes of s.
// It is used when a server sends no usage (llama.cpp while streaming, some
// Ollama builds), so that token limits and the cost shown in the UI still work.
//
// The rule of thumb, by UTF-8 bytes:
//   - ASCII and other 1-byte text (English, code, JSON): 1 token per 4 bytes;
//   - 2-byte letters (Cyrillic, and likewise Greek, Armenian, Hebrew, Arabic,
//     accented Latin): 1 token per 2 bytes, i.e. about one token per letter —
//     tokenizers trained mostly on English split Russian text much finer;
//   - 3- and 4-byte characters (CJK, emoji): 1 token per character.
//
// The parts are summed and rounded up, so any non-empty text counts at least
// one token. It is an estimate, good to roughly ±30 % on prose.
func EstimateTokens(s string) int {
	var oneByte, twoByte, wide int
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			oneByte++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		switch size {
		case 2:
			twoByte += 2
		case 1: // invalid byte: count it like ASCII
			oneByte++
		default:
			wide++
		}
		i += size
	}
	// Work in quarter-tokens to round once at the end.
	quarters := oneByte + twoByte*2 + wide*4
	return (quarters + 3) / 4
}

// ConservativeTokens is EstimateTokens rounded up by a quarter and one token,
// for limits that must not be passed: with no tokenizer to ask, a request
// is sized as if its text were that much denser than the rule of thumb says.
func ConservativeTokens(s string) int {
	if s == "" {
		return 0
	}
	n := EstimateTokens(s)
	return n + (n+3)/4 + 1
}

// messageOverhead is what a chat template adds around each message (role
// markers and separators), counted generously.
const messageOverhead = 8

// EstimateRequest is a conservative count of the prompt tokens of req: its
// messages, tool declarations and JSON schema, with each message's template.
func EstimateRequest(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += ConservativeTokens(m.Content) + messageOverhead
		for _, tc := range m.ToolCalls {
			n += ConservativeTokens(tc.Name) + ConservativeTokens(string(tc.Arguments))
		}
	}
	for _, t := range req.Tools {
		n += ConservativeTokens(t.Name) + ConservativeTokens(t.Description) + ConservativeTokens(string(t.Parameters)) + messageOverhead
	}
	if req.JSONSchema != nil {
		n += ConservativeTokens(string(req.JSONSchema.Schema))
	}
	return n
}
