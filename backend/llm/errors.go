package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	openai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// ErrorKind sorts model-server failures by what the user or the agent can do
// about them (start the server, pick another model, wait, fix the URL).
type ErrorKind string

// The kinds of [Error]. Unreachable, Timeout, Server and RateLimited are
// retried; the others are not, because repeating the same request cannot help.
const (
	KindUnreachable   ErrorKind = "unreachable"     // connection refused/reset/closed, host unknown
	KindTimeout       ErrorKind = "timeout"         // an attempt exceeded Config.Timeout
	KindServer        ErrorKind = "server"          // HTTP 5xx or an error event in the stream
	KindRateLimited   ErrorKind = "rate_limited"    // HTTP 429
	KindModelNotFound ErrorKind = "model_not_found" // HTTP 404 naming the model
	KindNotFound      ErrorKind = "not_found"       // HTTP 404 without a model: wrong URL path
	KindAuth          ErrorKind = "auth"            // HTTP 401/403
	KindBadRequest    ErrorKind = "bad_request"     // other HTTP 4xx
	KindBadResponse   ErrorKind = "bad_response"    // 2xx but not a chat completion (malformed JSON, HTML, ...)
	KindInvalid       ErrorKind = "invalid_request" // the Request itself is wrong; nothing was sent
	KindLength        ErrorKind = "length"          // the answer was cut at the length limit (finish_reason "length")
	KindTooLarge      ErrorKind = "too_large"       // the answer passed the reply size cap and was stopped
)

// Error is what [Client.Complete] returns when the model server fails. Its
// message is written for the user (it ends up in the assistant's UI); the
// fields let the agents decide, e.g. fall back to the built-in engine when
// the server is unreachable.
type Error struct {
	Kind       ErrorKind
	URL        string // the configured base URL
	Model      string
	StatusCode int    // HTTP status of the last attempt, 0 if none
	Body       string // excerpt of the last error body, if any
	Attempts   int    // attempts made, including the first
	Err        error  // the underlying error of the last attempt
	retryAfter time.Duration
	hasRetry   bool
	sameCount  int // consecutive final attempts that failed the same way
}

// Error renders the user-facing message.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	tries := ""
	if e.Attempts > 1 {
		tries = fmt.Sprintf(", %d attempts", e.Attempts)
	}
	switch e.Kind {
	case KindUnreachable:
		return fmt.Sprintf("model server at %s is not reachable (%s%s); start Ollama/llama.cpp or change the model URL in Settings",
			e.URL, describeNetErr(e.Err), tries)
	case KindTimeout:
		if errors.Is(e.Err, errAttemptDeadline) {
			return fmt.Sprintf("model server at %s did not finish its answer within the request deadline (%s%s); it was stopped — try again, raise the deadline, or choose a smaller model",
				e.URL, errText(e.Err), tries)
		}
		return fmt.Sprintf("model server at %s did not answer in time (%s%s); the model may still be loading or be too slow for this machine — try again, raise the time-out, or choose a smaller model",
			e.URL, describeNetErr(e.Err), tries)
	case KindServer:
		if e.StatusCode == 0 {
			return fmt.Sprintf("model server at %s failed while answering%s: %s", e.URL, times(e.sameCount), e.bodyOr(errText(e.Err)))
		}
		return fmt.Sprintf("model server returned %d%s: %s", e.StatusCode, times(e.sameCount), e.bodyOr(http.StatusText(e.StatusCode)))
	case KindRateLimited:
		return fmt.Sprintf("model server is busy (429 Too Many Requests)%s: %s; wait a moment and try again", times(e.sameCount), e.bodyOr("no details"))
	case KindModelNotFound:
		return fmt.Sprintf("model %q not found on the server at %s; install it (for Ollama: ollama pull %s) or choose an installed model in Settings (%s)",
			e.Model, e.URL, e.Model, e.bodyOr("404"))
	case KindNotFound:
		return fmt.Sprintf("the server at %s has no chat-completions endpoint (404 for …/chat/completions); the model URL usually ends in /v1, e.g. http://127.0.0.1:11434/v1 (%s)",
			e.URL, e.bodyOr("404 Not Found"))
	case KindAuth:
		return fmt.Sprintf("model server at %s refused the request (%d %s): check the API key in Settings (%s)",
			e.URL, e.StatusCode, http.StatusText(e.StatusCode), e.bodyOr("no details"))
	case KindBadRequest:
		return fmt.Sprintf("model server at %s rejected the request (%d %s): %s", e.URL, e.StatusCode, http.StatusText(e.StatusCode), e.bodyOr("no details"))
	case KindBadResponse:
		return fmt.Sprintf("model server at %s sent a reply that is not a valid chat completion (%s); is the URL an OpenAI-compatible API (usually ending in /v1)?", e.URL, errText(e.Err))
	case KindInvalid:
		return "invalid model request: " + errText(e.Err)
	case KindLength:
		return fmt.Sprintf("the model's answer was cut off at its length limit (finish_reason \"length\", %s); it is not used as an answer — the server's window or answer limit is too small for this request", errText(e.Err))
	case KindTooLarge:
		return fmt.Sprintf("model server at %s sent an answer larger than the reply size cap (%s); it was stopped and not used", e.URL, errText(e.Err))
	}
	return fmt.Sprintf("model server at %s: %s", e.URL, errText(e.Err))
}

// Unwrap exposes the underlying error (errors.Is(err, syscall.ECONNREFUSED)…).
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether repeating the same request might succeed.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindTimeout:
		// A stall may pass; an answer that outran its whole deadline
		// would only do it again.
		return !errors.Is(e.Err, errAttemptDeadline)
	case KindUnreachable, KindServer, KindRateLimited:
		return true
	}
	return false
}

func (e *Error) bodyOr(fallback string) string {
	if e.Body != "" {
		return e.Body
	}
	return fallback
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

// times says how often the same failure repeated, with a leading space,
// or nothing for a single failure.
func times(n int) string {
	switch n {
	case 0, 1:
		return ""
	case 2:
		return " twice"
	case 3:
		return " three times"
	case 4:
		return " four times"
	case 5:
		return " five times"
	}
	return fmt.Sprintf(" %d times", n)
}

// errAttemptTimeout is the cancellation cause of an attempt that ran out of
// time, to tell it from the caller's own cancellation.
var errAttemptTimeout = errors.New("attempt timed out")

// errAttemptDeadline is the cause of an attempt stopped at its deadline.
var errAttemptDeadline = errors.New("request deadline passed")

// errReplyTooLarge ends an answer's body at the reply size cap.
var errReplyTooLarge = errors.New("the answer passed the reply size cap")

// errEmptyReply marks a 2xx answer with no chat completion in it.
var errEmptyReply = errors.New("the reply contained no answer")

// errStreamCut marks a streamed answer that ended before its end: OpenAI's
// protocol gives every answer's last choice chunk a finish reason, and a
// stream closed before one came (the server stopped, the connection broke)
// is a part of an answer, never the answer.
var errStreamCut = errors.New("the answer stopped before its end")

// describeNetErr names a connection failure in a few words.
func describeNetErr(err error) string {
	switch {
	case err == nil:
		return "no answer"
	case errors.Is(err, errAttemptTimeout):
		return "time-out"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to host"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed by the server"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "unknown host " + dnsErr.Name
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return "time-out"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		msg = msg[i+2:]
	}
	return msg
}

// classify turns the error of one attempt into an *Error. attemptCtx is the
// attempt's context, whose cause tells an attempt time-out apart.
func (c *Client) classify(err error, attemptCtx context.Context, info *attemptInfo) *Error {
	e := &Error{URL: c.baseURL, Model: c.model, Err: err}
	if errors.Is(context.Cause(attemptCtx), errAttemptTimeout) {
		e.Kind = KindTimeout
		e.Err = errAttemptTimeout
		return e
	}
	if errors.Is(context.Cause(attemptCtx), errAttemptDeadline) {
		e.Kind = KindTimeout
		e.Err = fmt.Errorf("%w after %v", errAttemptDeadline, c.deadline)
		return e
	}
	if errors.Is(err, errReplyTooLarge) {
		e.Kind = KindTooLarge
		e.Err = fmt.Errorf("%d bytes", c.maxReplyBytes)
		return e
	}
	if info != nil && info.status >= 400 {
		e.StatusCode = info.status
		e.Body = bodyExcerpt(info.errBody)
		e.retryAfter, e.hasRetry = parseRetryAfter(info.header)
		e.Kind = kindForStatus(info.status, e.Body)
		return e
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		e.StatusCode = apiErr.StatusCode
		if apiErr.Response != nil {
			e.Body = readErrorBody(apiErr)
			e.retryAfter, e.hasRetry = parseRetryAfter(apiErr.Response.Header)
		}
		e.Kind = kindForStatus(apiErr.StatusCode, e.Body)
		return e
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		e.Kind = KindServer
		e.Body = excerpt(string(streamErr.Event.Data))
		if msg := jsonErrorMessage([]byte(streamErr.Event.Data)); msg != "" {
			e.Body = msg
		}
		return e
	}
	if errors.Is(err, errStreamCut) {
		e.Kind = KindServer // retried: the next attempt may finish
		return e
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr), errors.Is(err, errEmptyReply),
		strings.Contains(err.Error(), "error parsing response json"),
		strings.Contains(err.Error(), "expected destination type"):
		e.Kind = KindBadResponse
		if info != nil && info.contentType != "" && !strings.Contains(info.contentType, "json") && !strings.Contains(info.contentType, "event-stream") {
			e.Err = fmt.Errorf("content type %q: %w", info.contentType, err)
		}
		return e
	}
	var urlErr *url.Error
	var netErr net.Error
	if errors.As(err, &urlErr) || errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		e.Kind = KindUnreachable
		return e
	}
	// Anything else from the transport (e.g. "http2: stream closed") is
	// treated as a connection problem: retrying is the useful reaction.
	e.Kind = KindUnreachable
	return e
}

func kindForStatus(status int, body string) ErrorKind {
	switch {
	case status == http.StatusTooManyRequests:
		return KindRateLimited
	case status >= 500:
		return KindServer
	case status == http.StatusNotFound:
		if strings.Contains(strings.ToLower(body), "model") {
			return KindModelNotFound
		}
		return KindNotFound
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	}
	return KindBadRequest
}

// readErrorBody returns a short, readable excerpt of an error response:
// the "error.message" of an OpenAI-style body when present, else the text.
func readErrorBody(apiErr *openai.Error) string {
	if apiErr.Message != "" {
		return excerpt(apiErr.Message)
	}
	if apiErr.Response == nil || apiErr.Response.Body == nil {
		return ""
	}
	data, _ := io.ReadAll(io.LimitReader(apiErr.Response.Body, 64<<10))
	return bodyExcerpt(data)
}

// bodyExcerpt is the readable part of an error body: its JSON error message
// when it has one, else the text itself, shortened.
func bodyExcerpt(data []byte) string {
	if msg := jsonErrorMessage(data); msg != "" {
		return excerpt(msg)
	}
	return excerpt(string(data))
}

// jsonErrorMessage digs the message out of {"error":{"message":..}},
// {"error":".."} or {"message":".."} bodies (OpenAI, Ollama, llama.cpp).
func jsonErrorMessage(data []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	if len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	if v.Message != "" {
		return v.Message
	}
	return v.Detail
}

// excerpt shortens s to one line of at most 300 bytes (on a rune boundary).
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 300
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// parseRetryAfter reads Retry-After (seconds or an HTTP date) and the
// retry-after-ms variant some OpenAI-compatible servers send.
func parseRetryAfter(h http.Header) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := time.Until(t)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
