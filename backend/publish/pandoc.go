package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// NeedChromium is the error of a PDF export without Chromium (the package
// only recommends it): it says exactly what to install.
func NeedChromium() error {
	return errors.New("PDF export needs Chromium, which is not installed: install it with sudo apt install chromium (Debian and Ubuntu), then export again; Markdown and HTML export work without it")
}

// PandocArgs are pandoc's arguments for a book: pandoc's JSON tree of it
// in (prepareBook), format ("docx" or "epub") out to out; the title, author and
// language as metadata; a table of contents down to the chapters; EPUB
// sections at the chapters (and every level above); images found beside the
// book, copied into resourceDir.
func PandocArgs(format string, m Meta, resourceDir, out string) []string {
	to := format
	if format == "epub" {
		to = "epub3"
	}
	args := []string{"--from=json", "--to=" + to, "--standalone",
		"--metadata=title:" + m.Title, "--metadata=lang:" + m.Lang,
		"--toc", "--toc-depth=" + strconv.Itoa(m.ChapterLevel)}
	if m.Author != "" {
		args = append(args, "--metadata=author:"+m.Author)
	}
	if m.Date != "" {
		args = append(args, "--metadata=date:"+m.Date)
	}
	if m.Rights != "" {
		args = append(args, "--metadata=rights:"+m.Rights)
	}
	if m.Lang == "ru" {
		args = append(args, "--metadata=toc-title:Содержание")
	}
	if format == "epub" && m.Cover != "" {
		args = append(args, "--epub-cover-image="+m.Cover)
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

// Pandoc runs pandoc on body (front matter already off) into out: the
// pictures the policy lets in go into the book, the others are returned,
// and raw HTML becomes the book's own elements (prepareBook).
func Pandoc(ctx context.Context, format string, body []byte, m Meta, policy ImagePolicy, out string) ([]LeftOut, error) {
	pandoc := PandocPath()
	if pandoc == "" {
		return nil, NeedPandoc(format)
	}
	stage, err := os.MkdirTemp("", "waymark-pictures-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	tree, left, err := prepareBook(ctx, pandoc, body, policy, stage)
	if err != nil {
		return nil, err
	}
	if m.Cover != "" {
		// The cover too is read from its copy (Meta.Cover is vetted).
		img, why := ImagePolicy{BookDir: filepath.Dir(m.Cover)}.Vet(m.Cover)
		if why != "" {
			return nil, fmt.Errorf("the cover %s: %s", m.Cover, why)
		}
		p := &prepared{stage: stage, staged: map[string]string{}}
		if m.Cover, err = p.stageImage(img, "cover"); err != nil {
			return nil, fmt.Errorf("the cover: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, pandoc, PandocArgs(format, m, stage, out)...)
	cmd.Stdin = bytes.NewReader(tree)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("pandoc could not write the %s: %v %s", strings.ToUpper(format), err, strings.TrimSpace(stderr.String()))
	}
	return left, nil
}
