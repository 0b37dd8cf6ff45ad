package mcp

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// The client's ids reach the SDK as ids of ours and come back byte for
// byte; an id in flight is refused; a cancellation follows the request.
func TestRequestIDsRoundTrip(t *testing.T) {
	ids := newRequestIDs()
	for _, id := range []string{`1.5`, `123456789012345678901234567890`, `"a\"b"`, `-0`, `1E3`, `"ключ"`} {
		in := []byte(`{"jsonrpc":"2.0", "id" : ` + id + `,"method":"tools/list","params":{"x":"<&>"}}`)
		pass, reply := ids.inbound(in)
		if reply != nil || bytes.Contains(pass, []byte(id)) || !bytes.Contains(pass, []byte(`"params":{"x":"<&>"}`)) {
			t.Fatalf("%s in: %s %s", id, pass, reply)
		}
		if _, reply := ids.inbound(in); reply == nil || !bytes.Contains(reply, []byte(`"id":`+id)) || !bytes.Contains(reply, []byte("in flight")) {
			t.Fatalf("%s twice in flight: %s", id, reply)
		}
		at, _ := memberValue(pass, "id")
		ours := pass[at[0]:at[1]]
		out := ids.outbound([]byte(`{"jsonrpc":"2.0","id":` + string(ours) + `,"result":{"text":"id 1"}}`))
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":{"text":"id 1"}}`; string(out) != want {
			t.Fatalf("%s out: %s, want %s", id, out, want)
		}
		// Answered: free again.
		if _, reply := ids.inbound(in); reply != nil {
			t.Fatalf("%s after its reply: %s", id, reply)
		}
	}
	// A cancellation names the request by the SDK's id; a response of the
	// client and a request of the server pass as they are.
	pass, _ := ids.inbound([]byte(`{"jsonrpc":"2.0","id":77.25,"method":"tools/call"}`))
	at, _ := memberValue(pass, "id")
	ours := string(pass[at[0]:at[1]])
	c, _ := ids.inbound([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77.25,"reason":"x"}}`))
	if !strings.Contains(string(c), `"requestId":`+ours) {
		t.Fatalf("cancellation: %s", c)
	}
	if f := `{"jsonrpc":"2.0","id":3,"result":{}}`; string(must(ids.inbound([]byte(f)))) != f {
		t.Errorf("the client's response changed")
	}
	if f := `{"jsonrpc":"2.0","id":"waymark-1","method":"ping"}`; string(ids.outbound([]byte(f))) != f {
		t.Errorf("the server's request changed")
	}
}

func must(b, reply []byte) []byte {
	if reply != nil {
		return reply
	}
	return b
}

// A reply's id is put back without reading its result: a list of 500
// elements is ~100 KB, and the two lookups of members before read all of it
// (bytes allocated: 4.8 times the frame's size). Now about once (the
// spliced copy) whatever the size; requests and notifications of the
// server still pass as they are.
func TestOutboundReadsOnlyTheHeadOfAReply(t *testing.T) {
	ids := newRequestIDs()
	big := `{"items":[` + strings.Repeat(`{"number":1,"name":"Article number 1","href":"http://127.0.0.1:1/item/1"},`, 20000) + `{}]}`
	for i, tc := range []struct {
		frame, want string
	}{
		{`{"jsonrpc":"2.0","id":"OURS","result":` + big + `}`, `{"jsonrpc":"2.0","id":7,"result":` + big + `}`},
		{`{"jsonrpc":"2.0","id":"OURS","error":{"code":-32602,"message":"x"}}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`},
		{`{"result":{"a":[1,2]}, "id" : "OURS"}`, `{"result":{"a":[1,2]}, "id" : 7}`},
		{`{"jsonrpc":"2.0","id":"OURS","method":"ping"}`, `{"jsonrpc":"2.0","id":"OURS","method":"ping"}`},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":` + big + `}`, `{"jsonrpc":"2.0","method":"notifications/progress","params":` + big + `}`},
		{`{"jsonrpc":"2.0","id":"other-1","result":{}}`, `{"jsonrpc":"2.0","id":"other-1","result":{}}`},
	} {
		pass, _ := ids.inbound([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
		at, _ := memberValue(pass, "id")
		frame := strings.ReplaceAll(tc.frame, `"OURS"`, string(pass[at[0]:at[1]]))
		want := strings.ReplaceAll(tc.want, `"OURS"`, string(pass[at[0]:at[1]]))
		in := []byte(frame)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := ids.outbound(in)
		runtime.ReadMemStats(&after)
		if string(out) != want {
			t.Fatalf("%d: %.200s, want %.200s", i, out, want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; len(frame) > 1<<20 && alloc > uint64(len(frame))*3/2+64<<10 {
			t.Errorf("%d: %d bytes allocated for a frame of %d", i, alloc, len(frame))
		}
		ids.outbound([]byte(`{"jsonrpc":"2.0","id":` + string(pass[at[0]:at[1]]) + `,"result":{}}`)) // free the id
	}
}
