package store

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestMigrationScrubsSecrets: a profile written before issue 13 kept typed
// text and goals naming passwords in the browser transcript; opening it with
// this Waymark scrubs them, and the file keeps no copy of them.
func TestMigrationScrubsSecrets(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old := fstest.MapFS{}
	for _, n := range []string{"0001_init.sql", "0002_document_index.sql"} {
		b, err := migrationFiles.ReadFile("migrations/" + n)
		if err != nil {
			t.Fatal(err)
		}
		old["migrations/"+n] = &fstest.MapFile{Data: b}
	}
	s, err := openWith(path, old)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct{ session, kind, role, content, want string }{
		{"browser:last", "browser", "command", "type 4 hunter2", "type 4 (typed text not kept)"},
		{"browser:last", "browser", "command", "Enter 12 my secret words", "Enter 12 (typed text not kept)"},
		{"browser:last", "browser", "command", "введи 3 пароль123", "введи 3 (typed text not kept)"},
		{"browser:last", "browser", "command", "click 5", "click 5"},
		{"browser:last", "browser", "command", "press Enter", "press Enter"},
		{"browser:last", "browser", "goal", "sign in, my password is tr0ub4dor", "(removed: this line named a password or code)"},
		{"browser:last", "browser", "goal", "войди, пароль: qwerty77", "(removed: this line named a password or code)"},
		{"browser:last", "browser", "progress", "Typing the PIN 4321.", "(removed: this line named a password or code)"},
		{"browser:last", "browser", "goal", "find the weather in Kazan", "find the weather in Kazan"},
		{"doc:1", "browser", "command", "list", "list"},
		{"doc:x", "document", "event", "type 4 into the chapter", "type 4 into the chapter"},
	}
	for _, r := range rows {
		if err := s.EnsureSession(ctx, r.session, r.kind, 0); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r.content)
		if err := s.AppendTranscript(ctx, r.session, r.role, string(b)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, id := range []string{"browser:last", "doc:1", "doc:x"} {
		lines, err := s.Transcript(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			var text string
			if err := json.Unmarshal([]byte(l.Content), &text); err != nil {
				t.Fatalf("line %q is no longer a JSON string: %v", l.Content, err)
			}
			got[id] = append(got[id], text)
		}
	}
	i := map[string]int{}
	for _, r := range rows {
		if g := got[r.session][i[r.session]]; g != r.want {
			t.Errorf("%s %q became %q, want %q", r.role, r.content, g, r.want)
		}
		i[r.session]++
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The PIN is looked for with its word and with the full stop after it,
		// never as four digits alone: the file's timestamps are text with
		// nanoseconds, and "4321" turned up in one by chance (a CI failure:
		// "…09:22.316124321Z"). A timestamp never has a full stop after digits.
		for _, secret := range []string{"hunter2", "tr0ub4dor", "qwerty77", "PIN 4321", "4321.", "my secret words"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s still holds %q", filepath.Base(f), secret)
			}
		}
	}
}

// TestDatabaseIsPrivate: the database and the folder Waymark creates for it
// are the owner's alone (0600, 0700), wherever the path points, and a
// database an older Waymark left readable by others is made private (issue
// 13: it was created -rw-r--r--).
func TestDatabaseIsPrivate(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		madeDir    string
	}{
		{"new folders", filepath.Join(dir, "a", "b", "w.db"), filepath.Join(dir, "a", "b")},
		{"existing folder", filepath.Join(dir, "w.db"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(c.path)
			if err != nil {
				t.Fatal(err)
			}
			// A write makes the WAL and shared-memory files too.
			if err := s.EnsureSession(context.Background(), "browser:last", "browser", 0); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{c.path, c.path + "-wal", c.path + "-shm"} {
				fi, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("%s is %v, want -rw-------", filepath.Base(f), fi.Mode().Perm())
				}
			}
			s.Close()
			if c.madeDir != "" {
				for d := c.madeDir; d != dir; d = filepath.Dir(d) {
					if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
						t.Errorf("folder %s is %v, want drwx------", d, fi.Mode().Perm())
					}
				}
			}
			if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
				t.Errorf("the user's own folder was changed to %v", fi.Mode().Perm())
			}
		})
	}
	// An older profile readable by others is made private when opened.
	old := filepath.Join(dir, "old.db")
	s, err := Open(old)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, f := range []string{old, old + "-wal", old + "-shm"} {
		_ = os.Chmod(f, 0o644)
	}
	if s, err = Open(old); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, f := range []string{old, old + "-wal", old + "-shm"} {
		if fi, err := os.Stat(f); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("reopened %s is %v, want -rw-------", filepath.Base(f), fi.Mode().Perm())
		}
	}
}

// TestBrowserTranscriptHidesSecretsWhoeverWrites: whichever code writes a
// browser session's transcript, the store keeps no secret (issue 21): the
// text of a typing command (misspelled too), a password a goal states, and
// afterwards any line that repeats one; a document session's lines (the
// author's book) are kept as written.
func TestBrowserTranscriptHidesSecretsWhoeverWrites(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.EnsureSession(ctx, "browser:x", "browser", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureSession(ctx, "doc:x", "document", 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ role, content, want string }{
		{"command", `"type 3 27182818"`, `"type 3 •••"`},
		{"command", `"tpye 2 qz7-typo"`, `"tpye 2 •••"`},
		{"goal", `"sign in as user alice / Tr0ub4dor"`, `"sign in as user alice / •••"`},
		{"goal", `"войди, пароль: секрет123"`, `"войди, пароль: •••"`},
		{"result", `"PIN code (textbox) = \"27182818\", then Tr0ub4dor and qz7-typo"`, `"PIN code (textbox) = \"•••\", then ••• and •••"`},
		{"result", `"1. textbox Password\n2. button Sign in"`, `"1. textbox Password\n2. button Sign in"`},
		{"event", `{"say":"typing Tr0ub4dor","n":1}`, `{"n":1,"say":"typing •••"}`},
	} {
		if err := s.AppendTranscript(ctx, "browser:x", c.role, c.content); err != nil {
			t.Fatal(err)
		}
		lines, _ := s.Transcript(ctx, "browser:x", 1)
		if got := lines[0].Content; got != c.want {
			t.Errorf("%s %s stored as %s, want %s", c.role, c.content, got, c.want)
		}
	}
	book := `"Natasha said: the code is 1234, and typed Tr0ub4dor"`
	if err := s.AppendTranscript(ctx, "doc:x", "event", book); err != nil {
		t.Fatal(err)
	}
	if lines, _ := s.Transcript(ctx, "doc:x", 1); lines[0].Content != book {
		t.Errorf("a document session's line changed: %s", lines[0].Content)
	}
}
