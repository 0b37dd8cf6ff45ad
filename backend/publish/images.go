package publish

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// MaxImageBytes is the largest picture a book takes in.
const MaxImageBytes = 50 << 20

// ImagePolicy decides which pictures a book takes in (issue 32 point 2): a
// book someone sent may name ~/.ssh/id_rsa as its cover. Only a real
// picture (PNG, JPEG, GIF, WebP or SVG by its content, not its name) whose
// file, after every symbolic link, is inside the book's folder or a folder
// the author chose goes in; everything else is left out, with the reason.
type ImagePolicy struct {
	BookDir string   // the manuscript's folder: relative names are found there
	Folders []string // more folders the author chose for pictures
}

// LeftOut is a picture a book names and does not take in, and why.
type LeftOut struct {
	Src string `json:"src"`
	Why string `json:"why"`
}

// Image is a picture that may go into a book: its real path and type.
type Image struct {
	Path string // the file, every symbolic link resolved
	Ext  string // ".png", ".jpg", ".gif", ".webp", ".svg"
	Data bool   // a data: address, kept as it is
}

// Vet says whether the picture src (a book's image destination) goes into
// the book: its file, or why not.
func (p ImagePolicy) Vet(src string) (Image, string) {
	dest := strings.TrimSpace(src)
	if dest == "" {
		return Image{}, "it names no file"
	}
	if strings.HasPrefix(strings.ToLower(dest), "data:image/") {
		return Image{Data: true}, "" // in the book's own text: nothing is read
	}
	path := dest
	if u, err := url.Parse(dest); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		if u.Scheme != "file" {
			return Image{}, "it is a web address; only pictures saved on this computer go into a book (save it beside the book)"
		}
		path = u.Path
	} else if unq, err := url.PathUnescape(dest); err == nil {
		if _, err := os.Lstat(p.abs(dest)); err != nil {
			path = unq // Markdown may write a space as %20
		}
	}
	path = p.abs(path)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Image{}, "its file is not there"
	}
	inside := false
	for _, dir := range append([]string{p.BookDir}, p.Folders...) {
		if dir == "" {
			continue
		}
		d, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(d, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			inside = true
			break
		}
	}
	if !inside {
		return Image{}, "it is outside the book's folder (choose a folder for pictures to let it in)"
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Image{}, "its file is not there"
	}
	if !fi.Mode().IsRegular() {
		return Image{}, "it is not a regular file"
	}
	if fi.Size() > MaxImageBytes {
		return Image{}, fmt.Sprintf("it is larger than %d MB", MaxImageBytes>>20)
	}
	f, err := os.Open(real)
	if err != nil {
		return Image{}, "its file cannot be read"
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	ext := ImageType(head[:n])
	if ext == "" {
		return Image{}, "it is not a picture (PNG, JPEG, GIF, WebP or SVG) by its content"
	}
	return Image{Path: real, Ext: ext}, ""
}

func (p ImagePolicy) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.BookDir, path)
}

// ImageType is a picture's extension by its first bytes ("" when they are
// not a PNG, JPEG, GIF, WebP or SVG picture).
func ImageType(head []byte) string {
	switch http.DetectContentType(head) {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	}
	// SVG: XML whose first element is <svg (after a declaration, comments
	// or a doctype).
	s := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<?")):
			i := bytes.Index(s, []byte("?>"))
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		case bytes.HasPrefix(s, []byte("<!--")):
			i := bytes.Index(s, []byte("-->"))
			if i < 0 {
				return ""
			}
			s = s[i+3:]
		case bytes.HasPrefix(s, []byte("<!")):
			i := bytes.IndexByte(s, '>')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case bytes.HasPrefix(s, []byte("<svg")) && len(s) > 4 && strings.ContainsRune(" \t\r\n>/", rune(s[4])):
			return ".svg"
		default:
			return ""
		}
	}
}

// LeftOutNote is the sentence an export's answer gives for the pictures it
// left out ("" when none).
func LeftOutNote(left []LeftOut) string {
	if len(left) == 0 {
		return ""
	}
	parts := make([]string, len(left))
	for i, l := range left {
		parts[i] = l.Src + " (" + l.Why + ")"
	}
	return "Pictures left out of the book (their descriptions were kept): " + strings.Join(parts, "; ")
}
