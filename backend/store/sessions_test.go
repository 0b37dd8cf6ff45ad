package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestSessions saves what the window restores on restart — a browser
// session's state and a transcript — reopens the database file, and finds it
// all there; bad input is refused with a reason and changes nothing.
func TestSessions(t *testing.T) {
	ctx := context.Background()
	s, path := openTest(t)

	bad := []struct {
		name, id, kind, state, words string
	}{
		{"no id", "", "browser", `{}`, "required"},
		{"unknown kind", "b1", "chat", `{}`, "document or browser"},
		{"state not JSON", "b1", "browser", `{"url":`, "not JSON"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			err := s.SaveSession(ctx, c.id, c.kind, 0, json.RawMessage(c.state))
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("SaveSession: %v, want ErrInvalid saying %q", err, c.words)
			}
		})
	}
	if _, ok, err := s.Session(ctx, "b1"); err != nil || ok {
		t.Fatalf("a refused save left a session: %v %v", ok, err)
	}

	if err := s.SaveSession(ctx, "browser:last", "browser", 0, json.RawMessage(`{"history":["https://a.test/"]}`)); err != nil {
		t.Fatal(err)
	}
	// Saving again replaces the state.
	if err := s.SaveSession(ctx, "browser:last", "browser", 0, json.RawMessage(`{"history":["https://a.test/","https://b.test/"]}`)); err != nil {
		t.Fatal(err)
	}
	// EnsureSession keeps an existing session as it is.
	if err := s.EnsureSession(ctx, "browser:last", "browser", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureSession(ctx, "cmd", "document", 0); err != nil {
		t.Fatal(err)
	}
	for i, l := range []struct{ role, text string }{{"user", "find Natasha"}, {"assistant", "H2.p4"}, {"user", "next"}, {"assistant", "H2.p9"}} {
		if err := s.AppendTranscript(ctx, "cmd", l.role, l.text); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if err := s.AppendTranscript(ctx, "cmd", "", "x"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("an empty role was accepted: %v", err)
	}
	if err := s.AppendTranscript(ctx, "no such session", "user", "x"); err == nil {
		t.Fatal("a line was added to a session that does not exist")
	}
	s.Close()

	// A restart: the same file, opened anew.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, ok, err := s2.Session(ctx, "browser:last")
	if err != nil || !ok || got.Kind != "browser" || string(got.State) != `{"history":["https://a.test/","https://b.test/"]}` || got.UpdatedAt.IsZero() {
		t.Fatalf("restored session: %+v %v %v", got, ok, err)
	}
	lines, err := s2.Transcript(ctx, "cmd", 0)
	if err != nil || len(lines) != 4 || lines[0].Content != "find Natasha" || lines[3].Content != "H2.p9" || lines[0].Seq >= lines[3].Seq {
		t.Fatalf("transcript, oldest first: %+v %v", lines, err)
	}
	last2, err := s2.Transcript(ctx, "cmd", 2)
	if err != nil || len(last2) != 2 || last2[0].Content != "next" || last2[1].Content != "H2.p9" {
		t.Fatalf("the last two lines: %+v %v", last2, err)
	}
	if err := s2.ClearTranscript(ctx, "cmd"); err != nil {
		t.Fatal(err)
	}
	if lines, _ := s2.Transcript(ctx, "cmd", 0); len(lines) != 0 {
		t.Fatalf("cleared transcript still holds %d lines", len(lines))
	}
}
