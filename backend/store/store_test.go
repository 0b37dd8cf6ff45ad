package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// openTest opens a fresh store in a temporary folder and closes it at the end.
func openTest(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "profile", "waymark.db")
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func tableExists(t *testing.T, path, table string) bool {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestOpenAppliesMigrationsOnceAndReopens(t *testing.T) {
	ctx := context.Background()
	s, path := openTest(t)
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(migs) == 0 || migs[0].name != "0001_init.sql" {
		t.Fatalf("migrations = %v", migs)
	}
	info, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("folder mode = %o, want 700", perm)
	}
	for _, table := range []string{"documents", "revisions", "snapshots", "cursors", "target_sets",
		"target_members", "events", "settings", "sessions", "transcript", "agent_state"} {
		if !tableExists(t, path, table) {
			t.Errorf("table %s missing", table)
		}
	}
	if err := s.SetSetting(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for i := 0; i < 2; i++ { // reopening applies nothing and keeps the data
		s2, err := Open(path)
		if err != nil {
			t.Fatalf("reopen %d: %v", i, err)
		}
		if v, ok, err := s2.Setting(ctx, "k"); err != nil || !ok || v != "v" {
			t.Errorf("setting after reopen = %q %v %v", v, ok, err)
		}
		s2.Close()
		if got := userVersion(t, path); got != len(migs) {
			t.Errorf("user_version = %d, want %d", got, len(migs))
		}
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	s, path := openTest(t)
	s.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a newer schema: err = %v, want ErrSchemaTooNew", err)
	}
	if !strings.Contains(err.Error(), "99") {
		t.Errorf("error %q does not name the version", err)
	}
	if got := userVersion(t, path); got != 99 {
		t.Errorf("user_version changed to %d", got)
	}
}

func TestFailedMigrationKeepsOldVersion(t *testing.T) {
	initSQL, err := fs.ReadFile(migrationFiles, "migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	good := fstest.MapFS{"migrations/0001_init.sql": {Data: initSQL}}
	bad := fstest.MapFS{
		"migrations/0001_init.sql": {Data: initSQL},
		"migrations/0002_bad.sql":  {Data: []byte("CREATE TABLE extra (x); INSERT INTO no_such_table VALUES (1);")},
	}

	t.Run("pending after a good one", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "w.db")
		s, err := openWith(path, good)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		_, err = openWith(path, bad)
		if err == nil || !strings.Contains(err.Error(), "0002_bad.sql") {
			t.Fatalf("err = %v, want one naming 0002_bad.sql", err)
		}
		if v := userVersion(t, path); v != 1 {
			t.Errorf("user_version = %d, want 1", v)
		}
		if tableExists(t, path, "extra") {
			t.Error("table of the failed migration exists")
		}
	})
	t.Run("all pending in one transaction", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "w.db")
		if _, err := openWith(path, bad); err == nil {
			t.Fatal("no error")
		}
		if v := userVersion(t, path); v != 0 {
			t.Errorf("user_version = %d, want 0", v)
		}
		if tableExists(t, path, "documents") {
			t.Error("0001 was applied although 0002 failed in the same batch")
		}
	})
	t.Run("gap in numbering", func(t *testing.T) {
		gap := fstest.MapFS{"migrations/0001_init.sql": {Data: initSQL}, "migrations/0003_x.sql": {Data: []byte("SELECT 1;")}}
		if _, err := openWith(filepath.Join(t.TempDir(), "w.db"), gap); err == nil || !strings.Contains(err.Error(), "0003_x.sql") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestPragmas(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	// Ask several times, so several pooled connections are likely checked.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mode string
			var fk, sync, busy int
			if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
				t.Errorf("journal_mode = %q, %v", mode, err)
			}
			if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
				t.Errorf("foreign_keys = %d, %v", fk, err)
			}
			if err := s.db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
				t.Errorf("synchronous = %d (2 = FULL), %v", sync, err)
			}
			if err := s.db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil || busy != 5000 {
				t.Errorf("busy_timeout = %d, %v", busy, err)
			}
		}()
	}
	wg.Wait()
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?#%", "w&x=1.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at %s: %v", path, err)
	}
}

func TestDefaultPath(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder")
	}
	tests := []struct {
		name, db, xdg, want string
	}{
		{"WAYMARK_DB wins", "/x/y.db", "/xdg", "/x/y.db"},
		{"XDG_DATA_HOME", "", "/xdg", "/xdg/waymark/waymark.db"},
		{"relative XDG_DATA_HOME ignored", "", "rel", filepath.Join(home, ".local/share/waymark/waymark.db")},
		{"fallback", "", "", filepath.Join(home, ".local/share/waymark/waymark.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("WAYMARK_DB", tt.db)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			got, err := DefaultPath()
			if err != nil || got != tt.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestDocuments(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	d1, err := s.EnsureDocument(ctx, "/books/a/../novel.md")
	if err != nil {
		t.Fatal(err)
	}
	if d1.Path != "/books/novel.md" || d1.ID == 0 || d1.CreatedAt.IsZero() {
		t.Errorf("document = %+v", d1)
	}
	d2, err := s.EnsureDocument(ctx, "/books/novel.md")
	if err != nil || d2 != d1 {
		t.Errorf("second EnsureDocument = %+v, %v; want %+v", d2, err, d1)
	}
	if got, ok, err := s.DocumentByPath(ctx, "/books/novel.md"); err != nil || !ok || got != d1 {
		t.Errorf("DocumentByPath = %+v %v %v", got, ok, err)
	}
	if _, ok, err := s.DocumentByPath(ctx, "/books/other.md"); err != nil || ok {
		t.Errorf("DocumentByPath(unknown) = %v %v", ok, err)
	}
	if _, err := s.EnsureDocument(ctx, "relative.md"); !errors.Is(err, ErrInvalid) {
		t.Errorf("relative path: err = %v", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	doc, err := s.EnsureDocument(ctx, "/c.md")
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 15
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				c := []byte(strings.Repeat("x", w*100+i))
				if _, err := s.AppendRevision(ctx, Revision{DocID: doc.ID, Op: OpExternal, Snapshot: c, SHA256: hashOf(c), Size: int64(len(c))}); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Revisions(ctx, doc.ID, 0); err != nil {
					t.Error(err)
					return
				}
				if err := s.LogEvent(ctx, "w", doc.ID, i); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	revs, err := s.Revisions(ctx, doc.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != workers*each {
		t.Fatalf("%d revisions, want %d", len(revs), workers*each)
	}
	for i, r := range revs {
		if r.Rev != int64(i+1) {
			t.Fatalf("revision %d has number %d", i, r.Rev)
		}
	}
}
