package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// CursorState is the saved position and settings of a named cursor (a batch
// reader over a document's items), so a long pass over a novel can resume
// after a restart.
type CursorState struct {
	DocID          int64
	Name           string
	Forward        bool
	MaxElements    int
	MaxBytes       int
	IncludeContent bool
	// NextIndex is the index of the next item to return.
	NextIndex int
	// NextOffset is the first byte of that item at Rev, -1 if none; it lets the
	// position be re-based when the document changed since.
	NextOffset int64
	// Rev is the revision NextIndex and NextOffset refer to.
	Rev       int64
	Complete  bool
	UpdatedAt time.Time // set by SaveCursor
}

// SaveCursor creates or replaces the cursor (DocID, Name).
func (c *core) SaveCursor(ctx context.Context, cs CursorState) error {
	if cs.Name == "" {
		return fmt.Errorf("save cursor of document %d: %w: empty name", cs.DocID, ErrInvalid)
	}
	err := c.atomic(ctx, func(q querier) error {
		if err := requireDocument(ctx, q, cs.DocID); err != nil {
			return err
		}
		_, err := q.ExecContext(ctx, `INSERT INTO cursors (doc_id, name, forward, max_elements, max_bytes,
				include_content, next_index, next_offset, rev, complete, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (doc_id, name) DO UPDATE SET forward = excluded.forward,
				max_elements = excluded.max_elements, max_bytes = excluded.max_bytes,
				include_content = excluded.include_content, next_index = excluded.next_index,
				next_offset = excluded.next_offset, rev = excluded.rev, complete = excluded.complete,
				updated_at = excluded.updated_at`,
			cs.DocID, cs.Name, b2i(cs.Forward), cs.MaxElements, cs.MaxBytes, b2i(cs.IncludeContent),
			cs.NextIndex, cs.NextOffset, cs.Rev, b2i(cs.Complete), fmtTime(now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("save cursor %q of document %d: %w", cs.Name, cs.DocID, err)
	}
	return nil
}

const cursorCols = `SELECT doc_id, name, forward, max_elements, max_bytes, include_content,
	next_index, next_offset, rev, complete, updated_at FROM cursors `

func scanCursor(sc interface{ Scan(...any) error }) (CursorState, error) {
	var cs CursorState
	var updated string
	if err := sc.Scan(&cs.DocID, &cs.Name, &cs.Forward, &cs.MaxElements, &cs.MaxBytes, &cs.IncludeContent,
		&cs.NextIndex, &cs.NextOffset, &cs.Rev, &cs.Complete, &updated); err != nil {
		return CursorState{}, err
	}
	var err error
	cs.UpdatedAt, err = parseTime(updated)
	return cs, err
}

// Cursor returns one saved cursor; ok is false if it was never saved.
func (c *core) Cursor(ctx context.Context, docID int64, name string) (CursorState, bool, error) {
	cs, err := scanCursor(c.q.QueryRowContext(ctx, cursorCols+"WHERE doc_id = ? AND name = ?", docID, name))
	if errors.Is(err, sql.ErrNoRows) {
		return CursorState{}, false, nil
	}
	if err != nil {
		return CursorState{}, false, fmt.Errorf("cursor %q of document %d: %w", name, docID, err)
	}
	return cs, true, nil
}

// Cursors returns all saved cursors of a document, by name, to restore them
// when the document is opened.
func (c *core) Cursors(ctx context.Context, docID int64) ([]CursorState, error) {
	rows, err := c.q.QueryContext(ctx, cursorCols+"WHERE doc_id = ? ORDER BY name", docID)
	if err != nil {
		return nil, fmt.Errorf("cursors of document %d: %w", docID, err)
	}
	var out []CursorState
	for rows.Next() {
		cs, err := scanCursor(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("cursors of document %d: %w", docID, err)
		}
		out = append(out, cs)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("cursors of document %d: %w", docID, err)
	}
	return out, nil
}

// Event is one entry of the activity log.
type Event struct {
	ID        int64
	Kind      string
	DocID     int64 // 0 = not about a document
	Data      json.RawMessage
	CreatedAt time.Time
}

// LogEvent appends to the activity log, which records what Waymark did (opens,
// edits, tool calls) for the user and for debugging. data is stored as JSON;
// docID 0 means the event is about no document.
func (c *core) LogEvent(ctx context.Context, kind string, docID int64, data any) error {
	if kind == "" {
		return fmt.Errorf("log event: %w: empty kind", ErrInvalid)
	}
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("log %s event: encode data: %w", kind, err)
	}
	var doc any
	if docID != 0 {
		doc = docID
	}
	if _, err := c.q.ExecContext(ctx, "INSERT INTO events (kind, doc_id, data, created_at) VALUES (?, ?, ?, ?)",
		kind, doc, string(js), fmtTime(now())); err != nil {
		return fmt.Errorf("log %s event: %w", kind, err)
	}
	return nil
}

// Events returns the newest limit events of a kind ("" = all kinds), oldest
// first (newest last), as a log is read. limit <= 0 means no limit.
func (c *core) Events(ctx context.Context, kind string, limit int) ([]Event, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := c.q.QueryContext(ctx, `SELECT id, kind, doc_id, data, created_at FROM events
		WHERE ?1 = '' OR kind = ?1 ORDER BY id DESC LIMIT ?2`, kind, limit)
	if err != nil {
		return nil, fmt.Errorf("read %q events: %w", kind, err)
	}
	var out []Event
	for rows.Next() {
		var e Event
		var doc sql.NullInt64
		var data, created string
		if err := rows.Scan(&e.ID, &e.Kind, &doc, &data, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read %q events: %w", kind, err)
		}
		e.DocID, e.Data = doc.Int64, json.RawMessage(data)
		if e.CreatedAt, err = parseTime(created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read %q events: %w", kind, err)
		}
		out = append(out, e)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("read %q events: %w", kind, err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// Setting returns a profile setting; ok is false if it was never set, so the
// caller can apply its own default.
func (c *core) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := c.q.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read setting %q: %w", key, err)
	}
	return v, true, nil
}

// SetSetting creates or replaces a profile setting.
func (c *core) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return fmt.Errorf("set setting: %w: empty key", ErrInvalid)
	}
	if _, err := c.q.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, value, fmtTime(now())); err != nil {
		return fmt.Errorf("set setting %q: %w", key, err)
	}
	return nil
}

// AgentState is the saved state of a long-running agent task, so the task can
// resume after a restart.
type AgentState struct {
	TaskID    string
	Kind      string
	Data      json.RawMessage
	UpdatedAt time.Time
}

// SaveAgentState creates or replaces the state of a task; data is stored as JSON.
func (c *core) SaveAgentState(ctx context.Context, taskID, kind string, data any) error {
	if taskID == "" {
		return fmt.Errorf("save agent state: %w: empty task id", ErrInvalid)
	}
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("save agent state %q: encode data: %w", taskID, err)
	}
	if _, err := c.q.ExecContext(ctx, `INSERT INTO agent_state (task_id, kind, data, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (task_id) DO UPDATE SET kind = excluded.kind, data = excluded.data, updated_at = excluded.updated_at`,
		taskID, kind, string(js), fmtTime(now())); err != nil {
		return fmt.Errorf("save agent state %q: %w", taskID, err)
	}
	return nil
}

// AgentState returns the saved state of a task; an unknown task id gives an
// error that wraps ErrNotFound and names the id.
func (c *core) AgentState(ctx context.Context, taskID string) (AgentState, error) {
	var a AgentState
	var data, updated string
	err := c.q.QueryRowContext(ctx, "SELECT task_id, kind, data, updated_at FROM agent_state WHERE task_id = ?", taskID).
		Scan(&a.TaskID, &a.Kind, &data, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return AgentState{}, fmt.Errorf("agent task %q: %w", taskID, ErrNotFound)
	}
	if err != nil {
		return AgentState{}, fmt.Errorf("read agent state %q: %w", taskID, err)
	}
	a.Data = json.RawMessage(data)
	if a.UpdatedAt, err = parseTime(updated); err != nil {
		return AgentState{}, fmt.Errorf("read agent state %q: %w", taskID, err)
	}
	return a, nil
}
