package store

import (
	"bytes"
	"context"
	"testing"
)

// TestDocumentCacheIsOneRowPerDocument: the cached index of a document is
// replaced, never added to, so it does not grow with the history.
func TestDocumentCacheIsOneRowPerDocument(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	d, err := s.EnsureDocument(ctx, "/books/a.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.DocumentCache(ctx, d.ID); ok || err != nil {
		t.Fatalf("empty cache: %v %v", ok, err)
	}
	for i := 0; i < 10; i++ {
		c := DocumentCache{DocID: d.ID, Version: 4, SHA256: "abc", FileSHA256: "def", FileSize: int64(i), FileMtimeNs: 7, FileIno: 8, FileCtimeNs: 9, Data: []byte{1, 2, byte(i)}}
		if err := s.SaveDocumentCache(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	c, ok, err := s.DocumentCache(ctx, d.ID)
	if !ok || err != nil || !bytes.Equal(c.Data, []byte{1, 2, 9}) || c.FileSize != 9 || c.FileIno != 8 || c.SHA256 != "abc" {
		t.Fatalf("read back: %+v %v %v", c, ok, err)
	}
	var n int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM document_cache").Scan(&n); err != nil || n != 1 {
		t.Fatalf("cache holds %d rows (%v), want 1", n, err)
	}
}
