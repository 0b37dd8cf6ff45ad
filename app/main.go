// Command waymark is the offline assistant for authors of long Markdown manuscripts
// and for blind users browsing the web by numbers. With no subcommand it opens the
// desktop window; the subcommands (backend/cli) are the command-line door to the
// same tools the model, the MCP server and the window use.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/cli"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
)

func main() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	go stopOnSignal(sigs, cancel, os.Stderr, os.Exit, stopGrace)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// stopGrace is how long a door has, after TERM or INT, to end by itself
// (its context is cancelled: the browser closes, its temporary profile is
// removed) before the process ends anyway: within 2 s in all (issue 32).
// What is on disk stays whole either way: a book is saved by renaming a
// finished copy over it, and the database commits whole transactions.
const stopGrace = 1500 * time.Millisecond

// stopOnSignal cancels the doors' context at the first TERM or INT and ends
// the process when they have not ended within grace (stopGrace; a second
// signal: at once), with the shell's status for the signal (128 + its number).
func stopOnSignal(sigs <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer, exit func(int), grace time.Duration) {
	s := <-sigs
	cancel()
	code := 1
	if n, ok := s.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	select {
	case <-sigs:
	case <-time.After(grace):
	}
	fmt.Fprintf(stderr, "waymark: stopped (%v)\n", s)
	exit(code)
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, rest := cli.Split(args)
	if cmd == "" {
		return cli.Exit(runWindow(ctx, rest), stderr)
	}
	return cli.Run(ctx, cmd, rest, stdin, stdout, stderr)
}

// runWindow opens the desktop window on a file or on the sample manuscript.
func runWindow(ctx context.Context, args []string) error {
	f, err := cli.ParseFlags(args, "db", "doc")
	if err != nil {
		return err
	}
	doc := f.Doc
	restore := false
	switch len(f.Positional) {
	case 0:
	case 1:
		doc = f.Positional[0]
	default:
		return cli.UsageError{Msg: "give at most one manuscript to open"}
	}
	if doc == "" {
		// No book named: the last session's book comes back (the sample
		// manuscript the first time, or when the last book is gone).
		restore = true
		doc, err = samplePath()
		if err != nil {
			return err
		}
	}
	db := f.DB
	if db == "" {
		if db, err = store.DefaultPath(); err != nil {
			return err
		}
	}
	return runDesktop(desktopOptions{DocPath: doc, DBPath: db, RestoreLast: restore, Stop: ctx.Done()})
}

// samplePath puts the sample manuscript into the user's data folder on first use
// (never overwriting the author's changes to it) and returns its path.
func samplePath() (string, error) {
	base, err := waymark.DataDir()
	if err != nil {
		return "", fmt.Errorf("find the data folder for the sample manuscript: %w", err)
	}
	dir := filepath.Join(base, "sample")
	p := filepath.Join(dir, "manuscript.md")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.WriteFile(p, sample.Manuscript, 0o644); err != nil {
		return "", fmt.Errorf("write the sample manuscript: %w", err)
	}
	return p, nil
}
