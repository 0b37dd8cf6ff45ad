package store

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

func TestDocumentIndexCache(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	if _, ok, err := s.DocumentIndex(ctx, "abc", 1); ok || err != nil {
		t.Fatalf("empty cache: %v %v", ok, err)
	}
	if err := s.SaveDocumentIndex(ctx, "abc", 1, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if b, ok, err := s.DocumentIndex(ctx, "abc", 1); !ok || err != nil || !bytes.Equal(b, []byte{1, 2, 3}) {
		t.Fatalf("read back: %v %v %v", b, ok, err)
	}
	if _, ok, _ := s.DocumentIndex(ctx, "abc", 2); ok {
		t.Fatal("an index of another version was returned")
	}
	for i := 0; i < maxIndexes+8; i++ {
		if err := s.SaveDocumentIndex(ctx, fmt.Sprintf("sha%02d", i), 1, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM document_index").Scan(&n); err != nil || n != maxIndexes {
		t.Fatalf("cache holds %d rows (%v), want %d", n, err, maxIndexes)
	}
	if _, ok, _ := s.DocumentIndex(ctx, fmt.Sprintf("sha%02d", maxIndexes+7), 1); !ok {
		t.Fatal("the newest index was pruned")
	}
}
