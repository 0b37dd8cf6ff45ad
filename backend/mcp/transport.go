package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame is the largest JSON-RPC frame (one line) the server reads: the
// go-sdk's own bound. A longer line is skipped to its end and answered with
// an error; the session goes on.
const MaxFrame = sdk.DefaultMaxLineLength

// JSON-RPC 2.0 error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// LineTransport is MCP over newline-delimited JSON on a reader and a writer
// (standard input and output for ServeStdio) that survives a malformed
// frame: a line that is not JSON, not JSON-RPC 2.0, a batch, a request with
// an object for its id, a truncated line or one longer than MaxFrame is
// answered with a JSON-RPC error (id null when the frame's id cannot be
// read) and skipped, and the session keeps serving. The go-sdk's own
// stdio transport ends the session (and its browser) at the first such
// frame.
type LineTransport struct {
	In  io.Reader
	Out io.Writer
	// Max is the longest frame in bytes (0: MaxFrame).
	Max int
}

// lockedWriter keeps each written line whole when the filter's error replies
// and the server's messages are written from different goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// Connect implements sdk.Transport.
func (t *LineTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	max := t.Max
	if max <= 0 {
		max = MaxFrame
	}
	out := &lockedWriter{w: t.Out}
	ids := newRequestIDs()
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(filterFrames(t.In, pw, out, max, ids))
	}()
	// Frames reaching the SDK are checked and bounded already; its replies
	// get the client's ids back.
	return (&sdk.IOTransport{Reader: pr, Writer: &idWriter{w: out, ids: ids}, MaxLineLength: -1}).Connect(ctx)
}

// filterFrames copies the well-formed frames of in to good, one per line,
// and answers every other frame on errs. A request's id is replaced by one
// of ids (a request whose id is in flight is answered on errs). It returns
// nil at the end of in.
func filterFrames(in io.Reader, good io.Writer, errs io.Writer, max int, ids *requestIDs) error {
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, tooLong, err := readFrame(r, max)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			var reply []byte
			if tooLong {
				reply = errorReply(nil, codeInvalidRequest, fmt.Sprintf("frame longer than %d bytes: it was skipped; send smaller messages", max))
			} else {
				reply = check(line, err != nil)
			}
			frame := bytes.TrimSpace(line)
			if reply == nil {
				frame, reply = ids.inbound(frame)
			}
			if reply != nil {
				if _, werr := errs.Write(reply); werr != nil {
					return werr
				}
			} else if _, werr := good.Write(append(frame, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readFrame reads one line of at most max bytes (without its newline). A
// longer line is read to its end and dropped (tooLong). err is the reader's
// error (io.EOF at the end: line is then what came after the last newline).
func readFrame(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+2 { // room for "\r\n"
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return buf, tooLong, err
		}
		return bytes.TrimRight(buf, "\r\n"), tooLong, nil
	}
}

// check returns the error reply for a malformed frame, or nil when the frame
// is one well-formed JSON-RPC 2.0 message. truncated says the input ended
// inside the frame.
func check(line []byte, truncated bool) []byte {
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		id := json.RawMessage(nil)
		return errorReply(id, codeInvalidRequest, "batches are not supported: send one JSON-RPC message per line")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		msg := "parse error: the frame is not a JSON object"
		if truncated || errors.Is(err, io.ErrUnexpectedEOF) || bytes.Count(line, []byte("{")) > bytes.Count(line, []byte("}")) {
			msg = "parse error: the frame is truncated or not JSON"
		}
		return errorReply(nil, codeParseError, fmt.Sprintf("%s (%v); one JSON-RPC 2.0 object per line", msg, err))
	}
	id := m["id"]
	validID := len(id) == 0
	if len(id) > 0 {
		switch id[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			validID = true
		}
	}
	replyID := id
	if !validID {
		replyID = nil
	}
	if v, ok := m["jsonrpc"]; !ok || string(bytes.TrimSpace(v)) != `"2.0"` {
		return errorReply(replyID, codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if !validID {
		return errorReply(nil, codeInvalidRequest, "invalid request: id must be a string or a number")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorReply(replyID, codeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// errorReply is a JSON-RPC error response line (id null when id is nil).
func errorReply(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(b, '\n')
}

// stdio is the transport of ServeStdio.
func stdio() sdk.Transport { return &LineTransport{In: os.Stdin, Out: os.Stdout} }
