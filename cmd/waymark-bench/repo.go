package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// corpusBook is the default book, relative to the repository's root: the
// corpus sits beside a checkout (../shared/corpus).
const corpusBook = "../shared/corpus/books/war-and-peace.ru.md"

// modulePath is the repository's Go module, as this command was built from it.
func modulePath() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path != "" && bi.Main.Path != "command-line-arguments" {
		return bi.Main.Path
	}
	return "github.com/waymark/waymark"
}

// isRepo tells whether dir is the root of the module this command belongs to.
func isRepo(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(l, "module ")) == modulePath()
		}
	}
	return false
}

// findRepo returns the root of the Waymark repository: repo (--repo) when
// given, else the first folder holding Waymark's go.mod going up from the
// working folder, from this command's source file as compiled, and from the
// executable, so that the bench runs from any folder.
func findRepo(repo string) (string, error) {
	if repo != "" {
		abs, err := filepath.Abs(repo)
		if err != nil || !isRepo(abs) {
			return "", fmt.Errorf("--repo %s is not the Waymark repository (no go.mod of module %s there)", repo, modulePath())
		}
		return abs, nil
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, s := range starts {
		for dir := s; ; dir = filepath.Dir(dir) {
			if isRepo(dir) {
				return dir, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", fmt.Errorf("cannot find the Waymark repository (module %s) above %s: give --repo PATH", modulePath(), strings.Join(starts, ", "))
}

// findBook is --book, else the corpus's Russian War and Peace beside the
// repository.
func findBook(o options) (string, error) {
	if o.book != "" {
		return filepath.Abs(o.book)
	}
	repo, err := findRepo(o.repo)
	if err != nil {
		return "", fmt.Errorf("no --book PATH given, and %w", err)
	}
	book := filepath.Join(repo, corpusBook)
	if _, err := os.Stat(book); err != nil {
		return "", fmt.Errorf("the default book %s is missing (the corpus sits beside the repository): give --book PATH", filepath.Clean(book))
	}
	return filepath.Clean(book), nil
}

// productBinary is --bin, else the waymark command built from the repository
// with tags into dir (the desktop window needs frontend/dist built first).
func productBinary(o options, tags, dir string) (string, error) {
	if o.bin != "" {
		bin, err := filepath.Abs(o.bin)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("--bin: %w", err)
		}
		return bin, nil
	}
	repo, err := findRepo(o.repo)
	if err != nil {
		return "", fmt.Errorf("no --bin PATH given to run, and %w", err)
	}
	if strings.Contains(tags, "desktop") {
		if _, err := os.Stat(filepath.Join(repo, "frontend", "dist", "index.html")); err != nil {
			return "", fmt.Errorf("the window embeds frontend/dist, which is not built in %s: run bash build/build.sh (then --bin bin/waymark), or cd frontend && npm run build", repo)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command on PATH to build waymark with: put Go on PATH or give --bin PATH")
	}
	bin := filepath.Join(dir, "waymark")
	fmt.Fprintf(os.Stderr, "waymark-bench: building waymark (go build -tags %s ./app in %s)\n", tags, repo)
	cmd := exec.Command(goBin, "build", "-tags", tags, "-o", bin, "./app")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build waymark (or give --bin PATH): %v\n%s", err, out)
	}
	return bin, nil
}
