package publish

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// inlineImage is a Markdown image, ![alt](destination "title").
var inlineImage = regexp.MustCompile(`!\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n]*")?\s*\)`)

// DropMissingImages replaces the images of body whose files are not in dir
// (relative paths) or not on disk (absolute ones, file: addresses) by their
// alt text in italics, and names them: an EPUB that points at a picture it
// does not hold fails every validator, and a DOCX shows a broken frame.
// Web addresses are left as they are.
func DropMissingImages(body []byte, dir string) ([]byte, []string) {
	var missing []string
	out := inlineImage.ReplaceAllFunc(body, func(m []byte) []byte {
		sm := inlineImage.FindSubmatch(m)
		alt, dest := string(sm[1]), string(sm[2])
		if strings.Contains(dest, "://") && !strings.HasPrefix(dest, "file://") {
			return m
		}
		p := dest
		if u, err := url.Parse(dest); err == nil && (u.Scheme == "file" || u.Scheme == "") {
			p = u.Path
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return m
		}
		missing = append(missing, dest)
		if strings.TrimSpace(alt) == "" {
			return nil
		}
		return []byte("*" + alt + "*")
	})
	return out, missing
}
