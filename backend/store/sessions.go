package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/waymark/waymark/backend/secret"
)

// Session is a conversation the window restores on restart: a document session
// (the open manuscript, its cursor positions) or a browser session (its history).
type Session struct {
	ID        string
	Kind      string // "document" or "browser"
	DocID     int64  // 0 for a browser session
	State     json.RawMessage
	UpdatedAt time.Time
}

// TranscriptLine is one line of a session's transcript.
type TranscriptLine struct {
	Seq       int64
	Role      string
	Content   string
	CreatedAt time.Time
}

// SaveSession creates or replaces a session's state (any JSON value).
func (c *core) SaveSession(ctx context.Context, id, kind string, docID int64, state json.RawMessage) error {
	if id == "" || (kind != "document" && kind != "browser") {
		return fmt.Errorf("save session: %w: id %q and kind %q (document or browser) are required", ErrInvalid, id, kind)
	}
	if len(state) == 0 {
		state = json.RawMessage("{}")
	}
	if !json.Valid(state) {
		return fmt.Errorf("save session %q: %w: state is not JSON", id, ErrInvalid)
	}
	var doc any
	if docID > 0 {
		doc = docID
	}
	t := fmtTime(now())
	if _, err := c.q.ExecContext(ctx, `INSERT INTO sessions (id, kind, doc_id, created_at, updated_at, state) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, doc_id = excluded.doc_id, updated_at = excluded.updated_at, state = excluded.state`,
		id, kind, doc, t, t, string(state)); err != nil {
		return fmt.Errorf("save session %q: %w", id, err)
	}
	return nil
}

// Session returns a saved session; ok is false when there is none.
func (c *core) Session(ctx context.Context, id string) (Session, bool, error) {
	var s Session
	var doc sql.NullInt64
	var state, updated string
	err := c.q.QueryRowContext(ctx, "SELECT id, kind, doc_id, state, updated_at FROM sessions WHERE id = ?", id).
		Scan(&s.ID, &s.Kind, &doc, &state, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, fmt.Errorf("read session %q: %w", id, err)
	}
	s.DocID, s.State = doc.Int64, json.RawMessage(state)
	if s.UpdatedAt, err = parseTime(updated); err != nil {
		return Session{}, false, fmt.Errorf("read session %q: %w", id, err)
	}
	return s, true, nil
}

// AppendTranscript adds a line to a session's transcript (the session must
// exist). In a browser session's transcript no secret is stored, whichever
// code writes it (issue 21): the content (a JSON value, or text) goes
// through HideSecrets.
func (c *core) AppendTranscript(ctx context.Context, sessionID, role, content string) error {
	if role == "" {
		return fmt.Errorf("append to transcript %q: %w: empty role", sessionID, ErrInvalid)
	}
	err := c.atomic(ctx, func(q querier) error {
		var kind string
		if err := q.QueryRowContext(ctx, "SELECT kind FROM sessions WHERE id = ?", sessionID).Scan(&kind); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if kind == "browser" {
			content = secret.HideJSON(content, func(s string) string { return c.HideSecrets(role, s) })
		}
		var seq int64
		if err := q.QueryRowContext(ctx, "SELECT COALESCE(MAX(seq), 0) + 1 FROM transcript WHERE session_id = ?", sessionID).Scan(&seq); err != nil {
			return err
		}
		_, err := q.ExecContext(ctx, "INSERT INTO transcript (session_id, seq, role, content, created_at) VALUES (?, ?, ?, ?, ?)",
			sessionID, seq, role, content, fmtTime(now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("append to transcript %q: %w", sessionID, err)
	}
	return nil
}

// userRoles are the transcript roles whose lines are the user's own words:
// what they hold that looks like a secret (a password a goal states, the
// text of a typing command, misspelled or not) is hidden and remembered.
var userRoles = map[string]bool{"command": true, "goal": true, "answer": true}

// HideSecrets is a browser transcript line as it may be stored or shown:
// in the user's own words (role command, goal or answer) every
// secret-looking part is hidden, and remembered; in any line, every secret
// seen so far is hidden ("•••").
func (c *core) HideSecrets(role, text string) string {
	if userRoles[role] {
		return c.secrets.Hide(text)
	}
	return c.secrets.HideKnown(text)
}

// Transcript returns the last limit lines of a session's transcript (0: all), oldest first.
func (c *core) Transcript(ctx context.Context, sessionID string, limit int) ([]TranscriptLine, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := c.q.QueryContext(ctx, `SELECT seq, role, content, created_at FROM
		(SELECT seq, role, content, created_at FROM transcript WHERE session_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`, sessionID, limit)
	if err != nil {
		return nil, fmt.Errorf("transcript %q: %w", sessionID, err)
	}
	var out []TranscriptLine
	for rows.Next() {
		var l TranscriptLine
		var created string
		if err := rows.Scan(&l.Seq, &l.Role, &l.Content, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("transcript %q: %w", sessionID, err)
		}
		l.CreatedAt, _ = parseTime(created)
		out = append(out, l)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("transcript %q: %w", sessionID, err)
	}
	return out, nil
}

// ClearTranscript removes a session's transcript lines.
func (c *core) ClearTranscript(ctx context.Context, sessionID string) error {
	if _, err := c.q.ExecContext(ctx, "DELETE FROM transcript WHERE session_id = ?", sessionID); err != nil {
		return fmt.Errorf("clear transcript %q: %w", sessionID, err)
	}
	return nil
}

// EnsureSession creates a session with an empty state unless it exists, so
// transcript lines can be added to it.
func (c *core) EnsureSession(ctx context.Context, id, kind string, docID int64) error {
	if id == "" || (kind != "document" && kind != "browser") {
		return fmt.Errorf("ensure session: %w: id %q and kind %q (document or browser) are required", ErrInvalid, id, kind)
	}
	var doc any
	if docID > 0 {
		doc = docID
	}
	t := fmtTime(now())
	if _, err := c.q.ExecContext(ctx, `INSERT INTO sessions (id, kind, doc_id, created_at, updated_at, state) VALUES (?, ?, ?, ?, ?, '{}')
		ON CONFLICT (id) DO NOTHING`, id, kind, doc, t, t); err != nil {
		return fmt.Errorf("ensure session %q: %w", id, err)
	}
	return nil
}
