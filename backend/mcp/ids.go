package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// requestIDs keeps JSON-RPC request ids exact (issue 21). The go-sdk reads a
// numeric id as an int64, so 1.5 came back as 1 and a 30-digit id as
// -9223372036854775808, and two requests in flight with one id got one reply.
// LineTransport gives every request of the client an id of its own
// ("waymark-N") before the SDK sees it, and puts the client's id back, byte
// for byte, into the reply; a request whose id is still in flight is refused.
type requestIDs struct {
	mu   sync.Mutex
	next int64
	// byClient maps a client's id (its exact bytes) in flight to ours;
	// byOurs maps ours back.
	byClient map[string]string
	byOurs   map[string]json.RawMessage
}

const ourIDPrefix = "waymark-"

func newRequestIDs() *requestIDs {
	return &requestIDs{byClient: map[string]string{}, byOurs: map[string]json.RawMessage{}}
}

// inbound rewrites a well-formed frame from the client: a request gets an
// id of ours; a cancellation names the request by our id. It returns the
// frame to pass on, or an error reply when the request's id is in flight.
func (ids *requestIDs) inbound(frame []byte) (pass, reply []byte) {
	var head struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(frame, &head) != nil || head.Method == "" {
		return frame, nil // a response to a request of the server: as it is
	}
	if len(head.ID) == 0 {
		if head.Method == "notifications/cancelled" && len(head.Params.RequestID) > 0 {
			ids.mu.Lock()
			ours, ok := ids.byClient[string(head.Params.RequestID)]
			ids.mu.Unlock()
			if ok {
				if params, ok := memberValue(frame, "params"); ok {
					p := frame[params[0]:params[1]]
					if rid, ok := memberValue(p, "requestId"); ok {
						np := splice(p, rid, []byte(strconv.Quote(ours)))
						return splice(frame, params, np), nil
					}
				}
			}
		}
		return frame, nil
	}
	client := string(head.ID)
	ids.mu.Lock()
	if _, busy := ids.byClient[client]; busy {
		ids.mu.Unlock()
		return nil, errorReply(head.ID, codeInvalidRequest, fmt.Sprintf("id %s is already used by a request still in flight: give every request an id of its own", client))
	}
	ids.next++
	ours := ourIDPrefix + strconv.FormatInt(ids.next, 10)
	ids.byClient[client] = ours
	ids.byOurs[ours] = append(json.RawMessage(nil), head.ID...)
	ids.mu.Unlock()
	at, _ := memberValue(frame, "id")
	return splice(frame, at, []byte(strconv.Quote(ours))), nil
}

// outbound puts the client's id back into a reply of the SDK (the id is
// free again from then on); other frames pass as they are.
func (ids *requestIDs) outbound(frame []byte) []byte {
	at, ok := replyID(frame)
	if !ok {
		return frame
	}
	var ours string
	if json.Unmarshal(frame[at[0]:at[1]], &ours) != nil || !strings.HasPrefix(ours, ourIDPrefix) {
		return frame
	}
	ids.mu.Lock()
	client, ok := ids.byOurs[ours]
	if ok {
		delete(ids.byOurs, ours)
		delete(ids.byClient, string(client))
	}
	ids.mu.Unlock()
	if !ok {
		return frame
	}
	return splice(frame, at, client)
}

// replyID finds the id of a reply frame (a JSON object with an id and no
// method): its byte range [start, end) in frame; false for a request or a
// notification of the server, or a frame it cannot read. It reads members
// only as far as it must: the SDK writes the id before the result, so the
// result (a whole list of 500 elements, ~100 KB) is not read at all. Reading
// it twice, as two lookups of members did, was a tenth of the server's time
// on a list (issue 33 point 14).
func replyID(frame []byte) ([2]int, bool) {
	dec := json.NewDecoder(bytes.NewReader(frame))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return [2]int{}, false
	}
	var id [2]int
	hasID := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return [2]int{}, false
		}
		k, _ := t.(string)
		switch {
		case k == "method":
			return [2]int{}, false
		case (k == "result" || k == "error") && hasID:
			return id, true
		}
		start := int(dec.InputOffset())
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return [2]int{}, false
		}
		if k == "id" {
			id, hasID = valueRange(frame, start, int(dec.InputOffset())), true
		}
	}
	return id, hasID
}

// memberValue finds the value of a top-level member of a JSON object: its
// byte range [start, end) in frame.
func memberValue(frame []byte, key string) ([2]int, bool) {
	dec := json.NewDecoder(bytes.NewReader(frame))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return [2]int{}, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return [2]int{}, false
		}
		k, _ := t.(string)
		start := int(dec.InputOffset())
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return [2]int{}, false
		}
		if k == key {
			return valueRange(frame, start, int(dec.InputOffset())), true
		}
	}
	return [2]int{}, false
}

// valueRange is the range of a member's value read from start (after its
// key) to end: the colon and white space before it skipped.
func valueRange(frame []byte, start, end int) [2]int {
	for start < end && (frame[start] == ':' || frame[start] == ' ' || frame[start] == '\t' || frame[start] == '\r' || frame[start] == '\n') {
		start++
	}
	return [2]int{start, end}
}

// splice replaces frame[at[0]:at[1]] with v.
func splice(frame []byte, at [2]int, v []byte) []byte {
	out := make([]byte, 0, len(frame)-(at[1]-at[0])+len(v))
	out = append(out, frame[:at[0]]...)
	out = append(out, v...)
	return append(out, frame[at[1]:]...)
}

// idWriter writes the SDK's frames with the client's ids put back.
type idWriter struct {
	w   io.Writer
	ids *requestIDs
}

func (w *idWriter) Write(p []byte) (int, error) {
	line := bytes.TrimRight(p, "\n")
	out := w.ids.outbound(line)
	if _, err := w.w.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *idWriter) Close() error { return nil }
