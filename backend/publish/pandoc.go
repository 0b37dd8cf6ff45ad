package publish

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// PandocPath returns pandoc's path, or "" when it is not installed.
func PandocPath() string {
	p, err := exec.LookPath("pandoc")
	if err != nil {
		return ""
	}
	return p
}

// NeedPandoc is the error of a DOCX or EPUB export without pandoc: it says
// exactly what to install.
func NeedPandoc(format string) error {
	return fmt.Errorf("%s export needs pandoc, which is not installed: install it with sudo apt install pandoc (Debian and Ubuntu), then export again; Markdown, HTML and PDF export work without it", strings.ToUpper(format))
}

// PandocArgs are pandoc's arguments for a book: GitHub Markdown with
// footnotes in, format ("docx" or "epub") out to out; the title, author and
// language as metadata; a table of contents down to the chapters; EPUB
// sections at the chapters (and every level above); images found beside the
// book (resourceDir).
func PandocArgs(format string, m Meta, resourceDir, out string) []string {
	to := format
	if format == "epub" {
		to = "epub3"
	}
	args := []string{"--from=gfm+footnotes", "--to=" + to, "--standalone",
		"--metadata=title:" + m.Title, "--metadata=lang:" + m.Lang,
		"--toc", "--toc-depth=" + strconv.Itoa(m.ChapterLevel)}
	if m.Author != "" {
		args = append(args, "--metadata=author:"+m.Author)
	}
	if m.Lang == "ru" {
		args = append(args, "--metadata=toc-title:Содержание")
	}
	if format == "epub" {
		// pandoc 2.x's name; pandoc 3 still takes it (as --split-level).
		args = append(args, "--epub-chapter-level="+strconv.Itoa(m.ChapterLevel))
	}
	if resourceDir != "" {
		args = append(args, "--resource-path="+resourceDir)
	}
	return append(args, "--output="+out)
}

// Pandoc runs pandoc on body (front matter already off) into out.
func Pandoc(ctx context.Context, format string, body []byte, m Meta, resourceDir, out string) error {
	pandoc := PandocPath()
	if pandoc == "" {
		return NeedPandoc(format)
	}
	cmd := exec.CommandContext(ctx, pandoc, PandocArgs(format, m, resourceDir, out)...)
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pandoc could not write the %s: %v %s", strings.ToUpper(format), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
