package store

import (
	"compress/gzip"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// v3History is a database written by Waymark before the compaction (schema 3,
// commit 6d7a543): a 9 KB book opened, 60 keystroke saves through TypeText
// (every other one at a paragraph's end, which stored the whole book twice),
// a ReplaceText, a Delete and its Undo, an outside change reloaded, a Restore,
// a TargetSet of three items — and a snapshot every 50 edits and with each
// outside change and restore.
const v3History = "testdata/v3-history.db.gz"

func openV3(t *testing.T) string {
	t.Helper()
	f, err := os.Open(v3History)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v3.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	out.Close()
	return path
}

type revRow struct {
	rev                    int64
	op, sha, summary       string
	size, undoOf           int64
	undone, consumed       bool
	oldLen, newLen, snapAt int64
}

func revRows(t *testing.T, db *sql.DB) ([]revRow, int64) {
	t.Helper()
	rows, err := db.Query(`SELECT r.rev, r.op, r.sha256, r.summary, r.size, r.undo_of, r.undone, r.consumed,
		length(r.old), length(r.new), coalesce(length(s.content), -1) FROM revisions r
		LEFT JOIN snapshots s ON s.doc_id = r.doc_id AND s.rev = r.rev ORDER BY r.doc_id, r.rev`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []revRow
	var stored int64
	for rows.Next() {
		var r revRow
		if err := rows.Scan(&r.rev, &r.op, &r.sha, &r.summary, &r.size, &r.undoOf, &r.undone, &r.consumed, &r.oldLen, &r.newLen, &r.snapAt); err != nil {
			t.Fatal(err)
		}
		stored += r.oldLen + r.newLen + max(r.snapAt, 0)
		out = append(out, r)
	}
	return out, stored
}

// TestUpgradeCompactsHistory: opening a database of the old schema compacts
// its history — every revision is still there with its content (rebuilt and
// checked against its hash), its undo and redo marks and its summary; the
// TargetSets are untouched — and the bytes the history holds, and the file,
// shrink.
func TestUpgradeCompactsHistory(t *testing.T) {
	ctx := context.Background()
	path := openV3(t)
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	before, storedBefore := revRows(t, raw)
	var members []string
	mrows, err := raw.Query("SELECT set_id || ':' || byte_offset || ':' || rev || ':' || deleted_in_rev || ':' || label FROM target_members ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for mrows.Next() {
		var m string
		_ = mrows.Scan(&m)
		members = append(members, m)
	}
	mrows.Close()
	var version int
	_ = raw.QueryRow("PRAGMA user_version").Scan(&version)
	raw.Close()
	if version != 3 || len(before) < 60 {
		t.Fatalf("test data: schema %d, %d revisions; want the old schema 3 and its history", version, len(before))
	}
	fi, _ := os.Stat(path)
	sizeBefore := fi.Size()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	after, storedAfter := revRows(t, s.db)
	if len(after) != len(before) {
		t.Fatalf("%d revisions after the upgrade, %d before: history was lost", len(after), len(before))
	}
	for k, b := range before {
		a := after[k]
		if a.rev != b.rev || a.op != b.op || a.sha != b.sha || a.size != b.size || a.summary != b.summary ||
			a.undoOf != b.undoOf || a.undone != b.undone || a.consumed != b.consumed {
			t.Fatalf("revision %d changed: %+v, was %+v", b.rev, a, b)
		}
		// ContentAt rebuilds the text and checks it against the stored hash.
		if _, err := s.ContentAt(ctx, 1, b.rev); err != nil {
			t.Fatalf("revision %d after the upgrade: %v", b.rev, err)
		}
		if a.op != OpRestore && a.oldLen+a.newLen > 2*4096 { // a restore of revision 30 undoes letters all over the book
			t.Errorf("revision %d (%s) still stores %d bytes of splice", a.rev, a.op, a.oldLen+a.newLen)
		}
	}
	if storedAfter*4 > storedBefore {
		t.Errorf("the history holds %d bytes after the upgrade, %d before; want it at least 4 times smaller", storedAfter, storedBefore)
	}
	var got []string
	mrows, err = s.db.Query("SELECT set_id || ':' || byte_offset || ':' || rev || ':' || deleted_in_rev || ':' || label FROM target_members ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for mrows.Next() {
		var m string
		_ = mrows.Scan(&m)
		got = append(got, m)
	}
	mrows.Close()
	if len(got) != len(members) {
		t.Fatalf("target members %q, were %q", got, members)
	}
	for k := range got {
		if got[k] != members[k] {
			t.Fatalf("target members %q, were %q", got, members)
		}
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	// The history is append-only again.
	if _, err := s.db.Exec("UPDATE revisions SET old = x'00' WHERE rev = 2"); err == nil {
		t.Fatal("revisions can be rewritten after the upgrade")
	}
	if _, err := s.db.Exec("DELETE FROM snapshots"); err == nil {
		t.Fatal("snapshots can be deleted after the upgrade")
	}
	s.Close()
	fi, _ = os.Stat(path)
	t.Logf("database %d bytes before the upgrade, %d after; history %d bytes, now %d", sizeBefore, fi.Size(), storedBefore, storedAfter)
	if fi.Size()*2 > sizeBefore {
		t.Errorf("the database file is %d bytes after the upgrade, %d before: the freed pages were not given back", fi.Size(), sizeBefore)
	}
}
