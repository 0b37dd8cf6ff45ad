package author

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// Fixed texts of the protocol the built-in engine recognises.
const (
	notesHeader       = "Notes so far:\n"
	cursorCompleteMsg = "The cursor is complete"
)

// Step limits of RunCursorAgent (seed 001).
const (
	DefaultMaxSteps = 128
	MaxMaxSteps     = 512
	// maxRetries is how many times in a row the runtime asks again for one JSON
	// action before it gives up with a clear reason.
	maxRetries = 3
	// cursorReplyTokens is the room a cursor agent's request leaves for the
	// model's one JSON action.
	cursorReplyTokens = agent.JSONReplyTokens
	// exchangeTokens is the room a portion's request keeps for the
	// exchanges that may follow it in the same turn (a reminder, a
	// target_set_add and its reply).
	exchangeTokens = 400
	// maxBadItems is how many times the model is told that an item it named
	// is not in the book before the run stops.
	maxBadItems = 3
)

// ErrBadOptions marks invalid RunCursorAgent arguments.
var ErrBadOptions = errors.New("invalid RunCursorAgent arguments")

// CursorAgentOptions are RunCursorAgent's arguments (camelCase JSON).
type CursorAgentOptions struct {
	Forward         bool            `json:"forward" jsonschema:"read from the start (true) or from the end (false)"`
	MaxElements     int             `json:"maxElements" jsonschema:"items per portion, 1..200"`
	MaxBytes        int             `json:"maxBytes" jsonschema:"bytes per portion, 1..65536"`
	IncludeContent  bool            `json:"includeContent" jsonschema:"portions carry markdown/text (false: pointers and metadata only)"`
	Mode            string          `json:"mode" jsonschema:"FirstMatch, CollectToTargetSet or AggregateSummary"`
	TaskDescription string          `json:"taskDescription" jsonschema:"what to find, collect or summarise, e.g. Find the first mention of \"Natasha\""`
	TargetSetID     string          `json:"targetSetId,omitempty" jsonschema:"required for CollectToTargetSet"`
	MaxSteps        *int            `json:"maxSteps,omitempty" jsonschema:"model turns allowed, 1..512 (default 128)"`
	TaskID          string          `json:"taskId,omitempty" jsonschema:"continue an earlier task (e.g. the next mention)"`
	State           json.RawMessage `json:"state,omitempty" jsonschema:"the state an earlier call returned (optional with taskId)"`
	// Prefilter can switch the prefilter off (for measurements); default on.
	Prefilter *bool `json:"prefilter,omitempty" jsonschema:"show the model only portions that can hold the phrase, or the names of a task that needs understanding (default true)"`
	// FromIndex and ToIndex limit the reading to the items [fromIndex,
	// toIndex): a chapter, the selection, from the cursor on.
	FromIndex *int `json:"fromIndex,omitempty" jsonschema:"read from this item on (default: the start)"`
	ToIndex   *int `json:"toIndex,omitempty" jsonschema:"read up to this item, not including it (default: the end)"`
}

// CursorAgentResult is RunCursorAgent's result (camelCase JSON).
type CursorAgentResult struct {
	Success bool   `json:"success"`
	Reason  string `json:"reason,omitempty"`
	// ModelFailure names how the model server failed (an llm.ErrorKind,
	// or "over_budget") when that stopped the run: nothing was read to
	// the end, so nothing is "not found".
	ModelFailure string `json:"modelFailure,omitempty"`
	// ReadToEnd: the run read all it was to read and found nothing (no
	// portion was left, or the model said it was not there); Reason says
	// it for a model.
	ReadToEnd       bool              `json:"readToEnd,omitempty"`
	Summary         string            `json:"summary"`
	TargetSetID     string            `json:"targetSetId,omitempty"`
	SemanticPointer *document.Pointer `json:"semanticPointer,omitempty"`
	Markdown        string            `json:"markdown,omitempty"`
	FirstItemIndex  *int              `json:"firstItemIndex,omitempty"`
	Confidence      *float64          `json:"confidence,omitempty"`
	Reasons         []string          `json:"reasons,omitempty"`
	TaskID          string            `json:"taskId"`
	State           json.RawMessage   `json:"state,omitempty"`
	Steps           int               `json:"steps"`
	Portions        int               `json:"portions"`
	Prefiltered     bool              `json:"prefiltered"`
	Model           string            `json:"model"`
	Tokens          llm.Usage         `json:"tokens"`
	// StepLimit: the run stopped at its step limit, not at the end of what it
	// reads; StoppedAt is where (the headings of the last portion read).
	// Continuing the task (taskId) goes on from there.
	StepLimit bool   `json:"stepLimit,omitempty"`
	StoppedAt string `json:"stoppedAt,omitempty"`
	// Chapters and Missing: a model's summary that ended before every
	// chapter of its range had a note is not a success; Chapters counts the
	// chapters with text, Missing names those without a note.
	Chapters int      `json:"chapters,omitempty"`
	Missing  []string `json:"missing,omitempty"`
}

// taskState is what a later call needs to continue a task ("the next mention").
type taskState struct {
	Rev     int64  `json:"rev"`
	Byte    int    `json:"byte"` // first byte of the next item to read; -1 = the cursor is done
	Mode    string `json:"mode"`
	Forward bool   `json:"forward"`
}

func newTaskID() string { return newID("task_") }

// newID is prefix and 12 random hex digits: short, and not guessable.
func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

var (
	// Double quotes, guillemets and curly quotes; not the apostrophe, which is
	// part of words ("Pierre's").
	quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["«“„]([^"«»“”„]+)["»”“]`) })
)

// wantsCodeOrQuotes tells whether a task is explicitly about code or quotes.
func wantsCodeOrQuotes(task string) bool {
	t := strings.ToLower(quoted().ReplaceAllString(task, " "))
	for _, w := range []string{"code", "quote", "quotation", "код", "цитат"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// Runtime runs cursor agents on the workspace's current manuscript.
type Runtime struct {
	WS    *manuscript.Workspace
	Store *store.Store
	// Model is set when the Runtime is made; afterwards it changes only through
	// SetModel and is read through LLM (the window's settings change it while a
	// command may be running).
	Model llm.Model
	// TimeLimit bounds one command in all (0: no limit); the author sets
	// it (WAYMARK_TIME_LIMIT, Settings). Set it when the Runtime is made,
	// later only through SetTimeLimit.
	TimeLimit time.Duration

	mu  sync.Mutex
	reg *tools.Registry // the registry Register put the agent's tools in
}

// addToSet adds items to a target set through the TargetSetAdd tool, as
// every other writer of sets does (issue 24, point 5).
func (rt *Runtime) addToSet(ctx context.Context, id string, idx []int) (int, error) {
	rt.mu.Lock()
	reg := rt.reg
	rt.mu.Unlock()
	if reg == nil {
		return 0, errors.New("the cursor agent collects through the TargetSetAdd tool: register the agent's tools first (author.Register)")
	}
	v, err := manuscript.TargetSetAddRef.Call(ctx, reg, manuscript.TargetSetAddArgs{TargetSetID: id, ItemIndices: idx})
	if err != nil {
		return 0, err
	}
	return v.Count, nil
}

// LLM returns the model in use now.
func (rt *Runtime) LLM() llm.Model {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.Model
}

// SetTimeLimit sets the time limit of the next commands (0: none).
func (rt *Runtime) SetTimeLimit(d time.Duration) {
	rt.mu.Lock()
	rt.TimeLimit = d
	rt.mu.Unlock()
}

// timeLimit is the time limit of a command starting now.
func (rt *Runtime) timeLimit() time.Duration {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.TimeLimit
}

// SetModel makes the next runs use m; a run already going keeps its model.
func (rt *Runtime) SetModel(m llm.Model) {
	rt.mu.Lock()
	rt.Model = m
	rt.mu.Unlock()
}

// validate checks the options and fills defaults.
func (o *CursorAgentOptions) validate() (int, error) {
	known := false
	for _, m := range Modes {
		if o.Mode == m {
			known = true
		}
	}
	if !known {
		return 0, fmt.Errorf("%w: unknown mode %q; use one of %s", ErrBadOptions, o.Mode, strings.Join(Modes, ", "))
	}
	if o.Mode == ModeCollect && o.TargetSetID == "" {
		return 0, fmt.Errorf("%w: mode %s requires targetSetId (create one with TargetSetCreate)", ErrBadOptions, ModeCollect)
	}
	steps := DefaultMaxSteps
	if o.MaxSteps != nil {
		steps = *o.MaxSteps
		if steps < 1 || steps > MaxMaxSteps {
			return 0, fmt.Errorf("%w: maxSteps %d is out of range; allowed 1..%d (default %d)", ErrBadOptions, steps, MaxMaxSteps, DefaultMaxSteps)
		}
	}
	spec := document.CursorSpec{Name: "local", MaxElements: o.MaxElements, MaxBytes: o.MaxBytes}
	if err := spec.Validate(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	if strings.TrimSpace(o.TaskDescription) == "" {
		return 0, fmt.Errorf("%w: taskDescription is empty; say what to find, collect or summarise", ErrBadOptions)
	}
	return steps, nil
}

// Run executes one RunCursorAgent call. The cursor is local to the call; taskId
// and state continue an earlier task from where it stopped.
func (rt *Runtime) Run(ctx context.Context, o CursorAgentOptions) (CursorAgentResult, error) {
	steps, err := o.validate()
	if err != nil {
		return CursorAgentResult{}, err
	}
	r, err := rt.start(ctx, o)
	if err != nil {
		return CursorAgentResult{}, err
	}
	if r.open(ctx) {
		r.read(ctx, steps)
	}
	return r.finish(ctx), nil
}

// taskState reads the state of the task o continues (nil: a new task).
func (rt *Runtime) taskState(ctx context.Context, o CursorAgentOptions) (*taskState, error) {
	if o.TaskID == "" {
		return nil, nil
	}
	raw := o.State
	if len(raw) == 0 {
		as, err := rt.Store.AgentState(ctx, o.TaskID)
		if err != nil {
			return nil, fmt.Errorf("%w: taskId: %v", ErrBadOptions, err)
		}
		raw = as.Data
	}
	st := &taskState{}
	if err := json.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("%w: state of task %s is not valid: %v", ErrBadOptions, o.TaskID, err)
	}
	return st, nil
}
