package manuscript

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
)

// pngOf is a real w×h PNG picture.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			img.Set(x, y, color.RGBA{R: uint8(x * 40), G: uint8(y * 40), B: 200, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestExportTakesNoLocalFile (issue 32 point 2): a book someone sent,
// exported to EPUB or DOCX, carried the files it named into the book —
// `![cover](/abs/secret.txt)`, `![rel](../secret.txt)` and a raw
// `<img src="/etc/hostname">` became EPUB/media/file0.txt and
// word/media/rId20.txt — and a real picture outside the book's folder went
// into the PDF. Now only real pictures (by content) inside the book's
// folder, after every link, go in (or a folder the author chose), and the
// answer names each one left out and why.
func TestExportTakesNoLocalFile(t *testing.T) {
	testenv.NeedProgram(t, "pandoc", "pandoc")
	secretText := "SECRET-KEY-9f3a1c"
	elsewhere := t.TempDir()
	abs := filepath.Join(elsewhere, "secret.txt")
	outsidePic := filepath.Join(elsewhere, "holiday.png")
	if err := os.WriteFile(abs, []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outsidePic, pngOf(t, 7, 3), 0o600); err != nil {
		t.Fatal(err)
	}
	text := "# The Book\n\nA cover ![cover](" + abs + ") and ![rel](../secret.txt) and <img src=\"/etc/hostname\"> and " +
		"<img src=\"" + outsidePic + "\" alt=\"raw holiday\"> and ![holiday](" + outsidePic + ") and ![link](link.png) and ![fake](fake.png).\n\n" +
		"Kept: ![map](map.png)\n"
	doc, st := testenv.BookAndStore(t, text)
	dir := filepath.Dir(doc)
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.txt"), []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "map.png"), pngOf(t, 5, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fake.png"), []byte(secretText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outsidePic, filepath.Join(dir, "link.png")); err != nil {
		t.Fatal(err)
	}
	hostname, _ := os.ReadFile("/etc/hostname")
	call := rigOn(t, st, doc)
	out := t.TempDir()
	wantLeft := map[string]string{
		abs: "outside the book's folder", "../secret.txt": "outside the book's folder", "/etc/hostname": "outside the book's folder",
		outsidePic: "outside the book's folder", "link.png": "outside the book's folder", "fake.png": "not a picture",
	}
	formats := []string{"epub", "docx"}
	if _, err := exec.LookPath("chromium"); err == nil {
		formats = append(formats, "pdf")
	}
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			p := filepath.Join(out, "book."+format)
			a, _ := json.Marshal(map[string]any{"format": format, "path": p})
			res, err := call("Export", string(a))
			if err != nil {
				t.Fatal(err)
			}
			var left []struct{ Src, Why string }
			b, _ := json.Marshal(res["leftOut"])
			_ = json.Unmarshal(b, &left)
			got := map[string]string{}
			for _, l := range left {
				got[l.Src] = l.Why
			}
			for src, why := range wantLeft {
				if format == "pdf" && strings.HasPrefix(src, "/etc") {
					continue // raw HTML is never printed
				}
				if !strings.Contains(got[src], why) {
					t.Errorf("left out %q: %q, want a reason saying %q (all: %v)", src, got[src], why, got)
				}
			}
			if _, ok := got["map.png"]; ok {
				t.Errorf("the book's own picture was left out: %v", got)
			}
			if note, _ := res["note"].(string); !strings.Contains(note, "../secret.txt (it is outside the book's folder") {
				t.Errorf("the answer's note does not name what was left out and why: %q", note)
			}
			if format == "pdf" {
				// The pictures the PDF holds (Chromium resamples them): only the map.
				o, err := exec.Command("pdfimages", "-list", p).Output()
				if err != nil {
					t.Skipf("pdfimages: %v", err)
				}
				images := 0
				for _, l := range strings.Split(string(o), "\n") {
					if f := strings.Fields(l); len(f) > 4 && f[2] == "image" {
						images++
						if f[3] != "5" || f[4] != "5" {
							t.Errorf("a %s×%s picture in the PDF: not the book's 5×5 map (a broken picture's icon is 14×16)", f[3], f[4])
						}
					}
				}
				if images != 1 {
					t.Errorf("the PDF's pictures are not just the book's own map:\n%s", o)
				}
				return
			}
			media := 0
			for name, body := range unzip(t, p) {
				if strings.Contains(body, secretText) || len(bytes.TrimSpace(hostname)) > 0 && strings.Contains(name, "media") && strings.Contains(body, string(bytes.TrimSpace(hostname))) {
					t.Errorf("%s carries a local file's content", name)
				}
				if strings.Contains(name, "media/") {
					media++
					if !bytes.Equal([]byte(body), pngOf(t, 5, 5)) {
						t.Errorf("%s is not the book's own picture", name)
					}
				}
			}
			if media != 1 {
				t.Errorf("%d pictures in the book, want 1 (the map beside it)", media)
			}
		})
	}
}
