// Package store is the SQLite persistence of Waymark: one database file per
// user profile holding documents, their append-only revision history, named
// cursors, TargetSets, an event log, settings and agent state.
//
// Durability is the first concern: the database runs in WAL mode with
// synchronous=FULL, so every committed transaction survives a crash, SIGKILL or
// power loss, and a transaction that did not commit leaves no trace.
//
// Every method takes a context first. Methods are defined once and shared by
// *Store (each call is its own transaction) and *Tx (calls join the caller's
// transaction, see Store.Tx).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/waymark/waymark/backend/secret"
)

// ErrNotFound is wrapped by errors about a document, revision, target set,
// member or agent task that does not exist, so callers can tell "missing" from
// "broken" with errors.Is.
var ErrNotFound = errors.New("not found")

// ErrInvalid is wrapped by errors about arguments the store refuses to record
// (an unknown op, a bad hash, sizes that do not add up), so callers can report
// them as bad input rather than as database failures.
var ErrInvalid = errors.New("invalid argument")

// ErrConflict is wrapped when a write is based on a state that is no longer
// current (for example a revision number that another writer already used), so
// callers can reload and retry instead of overwriting history.
var ErrConflict = errors.New("conflict")

// ErrSchemaTooNew is wrapped by Open when the database was written by a newer
// Waymark; opening it with this binary could corrupt data it does not
// understand, so it is refused.
var ErrSchemaTooNew = errors.New("database schema is newer than this Waymark")

// maxOpenConns bounds the connection pool.
//
// Why not SetMaxOpenConns(1)? In WAL mode readers never block the writer and
// the writer never blocks readers, so several connections let the UI read
// (history, events, target sets) while an edit commits. Writers are still
// serialised by SQLite itself: every transaction starts with BEGIN IMMEDIATE
// (_txlock=immediate), so it takes the write lock up front and waits up to
// busy_timeout for it, instead of failing with SQLITE_BUSY when a read
// transaction tries to upgrade. The same mechanism handles a second Waymark
// process on the same profile, which one in-process connection could not.
// A single connection would also turn a Store call made inside a Tx callback
// into a silent deadlock; with a pool it waits at most busy_timeout and then
// fails with "database is locked". The bound keeps memory (each connection has
// its own page cache) and file descriptors small.
const maxOpenConns = 4

// busyTimeout is how long a connection waits for another writer's lock.
const busyTimeout = 5 * time.Second

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Store is an open profile database. It is safe for concurrent use by multiple
// goroutines; Close it when the profile is no longer needed.
type Store struct {
	core
	db   *sql.DB
	path string
}

// Tx is a transaction opened by Store.Tx. It has the same read and write
// methods as Store, but they all join one transaction, so that several writes
// (a revision, undo bookkeeping, TargetSet re-basing, an event) land together
// or not at all.
type Tx struct {
	core
}

// querier is what both *sql.DB and *sql.Tx offer; the SQL of every method is
// written once against it.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// core carries the methods shared by Store and Tx. q runs single statements;
// atomic runs several statements as one unit: a new transaction for Store, a
// savepoint inside the open transaction for Tx (so a failed method leaves no
// half-done writes even if the caller ignores its error).
type core struct {
	q      querier
	atomic func(ctx context.Context, fn func(q querier) error) error
	// secrets are the secrets seen in the user's words of the browser
	// transcripts (issue 21): hidden in every line written after (sessions.go).
	secrets *secret.Known
}

// DefaultPath returns where the profile database lives when no path is given:
// $WAYMARK_DB if set, else $XDG_DATA_HOME/waymark/waymark.db, else
// ~/.local/share/waymark/waymark.db. It follows the XDG base directory rules
// so the database sits with the user's other application data.
func DefaultPath() (string, error) {
	if p := os.Getenv("WAYMARK_DB"); p != "" {
		return p, nil
	}
	// The XDG spec says relative values are invalid and must be ignored.
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "waymark", "waymark.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default database path: find home folder: %w", err)
	}
	return filepath.Join(home, ".local", "share", "waymark", "waymark.db"), nil
}

// Open opens (creating if needed) the database at path and brings its schema up
// to date, so callers always get a ready, durable store. The parent folder is
// created private (0700) because the database holds the user's manuscripts.
func Open(path string) (*Store, error) {
	return openWith(path, migrationFiles)
}

// openWith is Open with the migrations read from fsys (tests inject broken ones).
func openWith(p string, fsys fs.FS) (*Store, error) {
	if p == "" {
		return nil, fmt.Errorf("open database: %w: empty path", ErrInvalid)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", p, err)
	}
	migs, err := loadMigrations(fsys)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open database %s: create folder: %w", abs, err)
	}
	if err := makePrivate(abs); err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	db, err := sql.Open("sqlite3", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxOpenConns)
	s := &Store{db: db, path: abs}
	s.core = core{q: db, atomic: s.inTx, secrets: &secret.Known{}}
	if err := s.checkPragmas(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	if err := s.migrate(migs); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	return s, nil
}

// makePrivate creates the database file readable and writable by its owner
// only (0600) before SQLite opens it, so its WAL and shared-memory files,
// which SQLite creates with the database's permissions, are private too; a
// database (and its -wal, -shm) that an older Waymark left readable by others
// is made private. The folder is the caller's: only folders Open creates are
// made 0700.
func makePrivate(abs string) error {
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create the database file: %w", err)
	}
	f.Close()
	for _, p := range []string{abs, abs + "-wal", abs + "-shm", abs + "-journal"} {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, fi.Mode().Perm()&0o600); err != nil {
				return fmt.Errorf("make %s private (owner only): %w", filepath.Base(p), err)
			}
		}
	}
	return nil
}

// dsn builds a file: URI (so any character in the path is escaped safely) with
// the per-connection settings the driver applies to every new connection.
func dsn(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: C:/x → /C:/x
	}
	u := url.URL{Scheme: "file", Path: p}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	// FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on power
	// loss; a revision the user was told is saved must stay saved.
	q.Set("_synchronous", "FULL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", strconv.Itoa(int(busyTimeout/time.Millisecond)))
	q.Set("_txlock", "immediate")
	// Deleted or overwritten content (a scrubbed transcript line, an old
	// setting) is zeroed in the file, not left in free pages.
	q.Set("_secure_delete", "on")
	return u.String() + "?" + q.Encode()
}

// checkPragmas verifies the settings the durability guarantees depend on; a file
// system without WAL support, for example, must not silently weaken them.
func (s *Store) checkPragmas() error {
	ctx := context.Background()
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("read journal mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal (does this file system support WAL?)", mode)
	}
	var fk, sync int
	if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return fmt.Errorf("read foreign_keys: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return fmt.Errorf("read synchronous: %w", err)
	}
	if fk != 1 || sync < 2 {
		return fmt.Errorf("connection settings not applied (foreign_keys=%d, synchronous=%d)", fk, sync)
	}
	return nil
}

// Path returns the absolute path of the database file, for messages and logs.
func (s *Store) Path() string { return s.path }

// Close closes the database. Every committed write is already on disk, so Close
// is about releasing files, not about saving.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close database %s: %w", s.path, err)
	}
	return nil
}

// IntegrityCheck runs PRAGMA integrity_check and PRAGMA foreign_key_check and
// returns an error describing any problem, so the app (and crash tests) can
// detect a damaged profile before trusting it.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("integrity check of %s: %w", s.path, err)
	}
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			rows.Close()
			return fmt.Errorf("integrity check of %s: %w", s.path, err)
		}
		msgs = append(msgs, m)
	}
	if err := closeRows(rows); err != nil {
		return fmt.Errorf("integrity check of %s: %w", s.path, err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("integrity check of %s failed: %s", s.path, strings.Join(msgs, "; "))
	}
	rows, err = s.db.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("foreign key check of %s: %w", s.path, err)
	}
	n := 0
	var first string
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fkid int64
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			rows.Close()
			return fmt.Errorf("foreign key check of %s: %w", s.path, err)
		}
		if n == 0 {
			first = fmt.Sprintf("%s row %d refers to a missing %s row", table, rowid.Int64, parent)
		}
		n++
	}
	if err := closeRows(rows); err != nil {
		return fmt.Errorf("foreign key check of %s: %w", s.path, err)
	}
	if n > 0 {
		return fmt.Errorf("foreign key check of %s failed: %d violations, first: %s", s.path, n, first)
	}
	return nil
}

// Tx runs fn in one write transaction and commits if fn returns nil, so that
// related writes (for example AppendRevision, SetUndone, FollowTargetMembers and
// LogEvent for one edit) are atomic. If fn returns an error or panics, nothing
// fn wrote is kept and fn's error is returned unchanged.
//
// The transaction holds the database's write lock until fn returns: keep fn
// short, and use only tx inside it (a Store write from inside fn waits for the
// lock fn holds and fails after the busy timeout).
func (s *Store) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	tx := &Tx{core: core{q: sqlTx, atomic: savepoint(sqlTx), secrets: s.secrets}}
	defer func() {
		if p := recover(); p != nil {
			_ = sqlTx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if rerr := sqlTx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("roll back transaction: %w", rerr))
		}
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}

// inTx is Store's atomic: a transaction of its own.
func (s *Store) inTx(ctx context.Context, fn func(q querier) error) error {
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = sqlTx.Rollback()
			panic(p)
		}
	}()
	if err := fn(sqlTx); err != nil {
		_ = sqlTx.Rollback()
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// savepoint is Tx's atomic: a savepoint, so one failed method is undone without
// ending the caller's transaction.
func savepoint(tx *sql.Tx) func(ctx context.Context, fn func(q querier) error) error {
	return func(ctx context.Context, fn func(q querier) error) error {
		if _, err := tx.ExecContext(ctx, "SAVEPOINT waymark_op"); err != nil {
			return fmt.Errorf("savepoint: %w", err)
		}
		if err := fn(tx); err != nil {
			// Best effort: if this fails the transaction is unusable anyway and
			// Store.Tx will roll it back when fn reports the error.
			_, _ = tx.ExecContext(context.WithoutCancel(ctx), "ROLLBACK TO waymark_op; RELEASE waymark_op")
			return err
		}
		if _, err := tx.ExecContext(ctx, "RELEASE waymark_op"); err != nil {
			return fmt.Errorf("release savepoint: %w", err)
		}
		return nil
	}
}

// migration is one embedded schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads migrations/NNNN_name.sql from fsys; versions must run
// 1, 2, 3, … without gaps so user_version always names exactly one schema.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var migs []migration
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration file %s: name must look like 0001_name.sql", name)
		}
		body, err := fs.ReadFile(fsys, path.Join("migrations", name))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		migs = append(migs, migration{version: v, name: name, sql: string(body)})
	}
	sort.Slice(migs, func(i, j int) bool { return migs[i].version < migs[j].version })
	for i, m := range migs {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d (versions must be 1, 2, 3, … without gaps or repeats)", m.name, i+1)
		}
	}
	return migs, nil
}

// migrate applies all pending migrations in ONE transaction and records the new
// version in PRAGMA user_version inside it, so the schema is either entirely at
// the old version or entirely at the new one — also if the process is killed.
// user_version is read inside the transaction (which holds the write lock), so
// two processes opening a fresh profile at once cannot both migrate it.
//
// Note for future migrations: PRAGMA foreign_keys cannot be changed inside a
// transaction, so a migration that rebuilds a table must keep references valid
// with foreign keys on.
func (s *Store) migrate(migs []migration) error {
	ctx := context.Background()
	compacted := false
	err := s.inTx(ctx, func(q querier) error {
		var cur int
		if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if cur > len(migs) {
			return fmt.Errorf("%w: the database has schema version %d, this Waymark knows up to %d; use a newer Waymark", ErrSchemaTooNew, cur, len(migs))
		}
		for _, m := range migs[cur:] {
			if _, err := q.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
			if step, ok := goMigrations[m.version]; ok {
				changed, err := step(ctx, q)
				if err != nil {
					return fmt.Errorf("apply migration %s: %w", m.name, err)
				}
				compacted = compacted || changed
			}
		}
		if cur == len(migs) {
			return nil
		}
		// PRAGMA takes no bound parameters; the value is an int we produced.
		if _, err := q.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migs))); err != nil {
			return fmt.Errorf("record schema version %d: %w", len(migs), err)
		}
		return nil
	})
	if err == nil && compacted {
		vacuumAfter(ctx, s.db)
	}
	return err
}

// timeLayout is fixed-width so stored times sort correctly as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// now is the time stamp for new rows, in UTC.
func now() time.Time { return time.Now().UTC() }

func fmtTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad stored time %q: %w", s, err)
	}
	return t.UTC(), nil
}

// closeRows closes rows and returns the iteration error, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// requireDocument returns an ErrNotFound error naming docID unless it exists.
func requireDocument(ctx context.Context, q querier, docID int64) error {
	var one int
	err := q.QueryRowContext(ctx, "SELECT 1 FROM documents WHERE id = ?", docID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("document %d: %w", docID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("look up document %d: %w", docID, err)
	}
	return nil
}

// b2i stores a bool as SQLite's 0/1.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
