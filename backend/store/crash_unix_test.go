//go:build unix

package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const crashEnv = "WAYMARK_STORE_CRASH_DB"

// TestCrashKill SIGKILLs a writer process at random moments and checks after
// each kill that the database is intact, the history is contiguous 1..N, the
// content at N rebuilds to its stored hash, and no revision the writer saw
// committed was lost.
func TestCrashKill(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	db := filepath.Join(t.TempDir(), "crash.db")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	var prevN int64
	for round := 0; round < 20; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+db)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The writer prints "committed N" after each commit.
		reported := make(chan int64, 1)
		first := make(chan struct{}) // closed at the writer's first commit, or its end
		go func() {
			var max int64
			once := sync.OnceFunc(func() { close(first) })
			defer once()
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if n, ok := strings.CutPrefix(sc.Text(), "committed "); ok {
					if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > max {
						max = v
					}
					once()
				}
			}
			reported <- max
		}()
		// The random moment is counted from the writer's first commit, not
		// from its start: a start slowed by a loaded machine or -race
		// (often past 300 ms) must not leave every round without a commit.
		if round%4 != 0 {
			<-first
		}
		time.Sleep(time.Duration(10+rng.IntN(290)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		committed := <-reported
		_ = cmd.Wait() // "signal: killed"

		s, err := Open(db)
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		if err := s.IntegrityCheck(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		doc, ok, err := s.DocumentByPath(ctx, crashDoc)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		if ok {
			revs, err := s.Revisions(ctx, doc.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range revs {
				if r.Rev != int64(i+1) {
					t.Fatalf("round %d: revision %d has number %d", round, i, r.Rev)
				}
			}
			n = int64(len(revs))
			if n > 0 {
				if _, err := s.ContentAt(ctx, doc.ID, n); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
			}
		}
		s.Close()
		if n < committed || n < prevN {
			t.Fatalf("round %d: %d revisions, but %d were reported committed (%d before this round)", round, n, committed, prevN)
		}
		t.Logf("round %d: %d revisions (writer reported %d)", round, n, committed)
		prevN = n
	}
	if prevN == 0 {
		t.Error("the writer never committed anything; the test proved nothing")
	}
}

const crashDoc = "/crash/novel.md"

// TestHelperProcess is the writer of TestCrashKill; it only runs in the child.
func TestHelperProcess(t *testing.T) {
	db := os.Getenv(crashEnv)
	if db == "" {
		t.Skip("helper process of TestCrashKill")
	}
	if err := crashWriter(db); err != nil {
		fmt.Fprintln(os.Stderr, "crash writer:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// crashWriter appends edits (with TargetSet re-basing and an event, in one Tx)
// in a tight loop until it is killed, or for at most 30 s.
func crashWriter(db string) error {
	ctx := context.Background()
	s, err := Open(db)
	if err != nil {
		return err
	}
	doc, err := s.EnsureDocument(ctx, crashDoc)
	if err != nil {
		return err
	}
	var content []byte
	head, ok, err := s.LatestRevision(ctx, doc.ID)
	if err != nil {
		return err
	}
	if ok {
		if content, err = s.ContentAt(ctx, doc.ID, head.Rev); err != nil {
			return err
		}
	} else {
		content = []byte("# Chapter\n\nIt was a dark night.\n")
		if head, err = s.AppendRevision(ctx, Revision{DocID: doc.ID, Op: OpOpen, Snapshot: content, SHA256: hashOf(content), Size: int64(len(content))}); err != nil {
			return err
		}
	}
	sets, err := s.TargetSets(ctx, doc.ID)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		ts, err := s.CreateTargetSet(ctx, doc.ID, "all")
		if err != nil {
			return err
		}
		if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{ByteOffset: 0, Rev: 1}, {ByteOffset: 11, Rev: 1}}); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(os.Getpid())))
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		var start, oldLen int
		var text []byte
		op := OpInsertAfter
		switch {
		case i%3 == 2 && len(content) > 20:
			op, start, oldLen = OpDelete, rng.IntN(len(content)-10), 1+rng.IntN(8)
		case i%3 == 1 && len(content) > 0:
			op, start, oldLen, text = OpReplaceText, rng.IntN(len(content)), 0, []byte("~")
			if start < len(content) {
				oldLen = 1
			}
		default:
			start, text = len(content), []byte(fmt.Sprintf("Line %d of round text.\n", i))
		}
		after := make([]byte, 0, len(content)-oldLen+len(text))
		after = append(append(append(after, content[:start]...), text...), content[start+oldLen:]...)
		r := Revision{DocID: doc.ID, Op: op, Start: int64(start), Old: content[start : start+oldLen], New: text,
			SHA256: hashOf(after), Size: int64(len(after)), Summary: op}
		var rev int64
		err := s.Tx(ctx, func(tx *Tx) error {
			if snap, ok, err := tx.LatestSnapshotRev(ctx, doc.ID); err != nil {
				return err
			} else if ok && head.Rev-snap >= 25 {
				r.Snapshot = after
			}
			stored, err := tx.AppendRevision(ctx, r)
			if err != nil {
				return err
			}
			rev = stored.Rev
			if err := tx.ClearRedo(ctx, doc.ID); err != nil {
				return err
			}
			if err := tx.FollowTargetMembers(ctx, doc.ID, rev, int64(start), int64(start+oldLen), int64(start+len(text)), nil, nil); err != nil {
				return err
			}
			return tx.LogEvent(ctx, "edit", doc.ID, map[string]any{"revision": rev})
		})
		if err != nil {
			return err
		}
		head.Rev = rev
		content = after
		fmt.Printf("committed %d\n", rev)
	}
	return s.Close()
}
