package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// maxIndexes bounds the document index cache; the oldest rows go first.
const maxIndexes = 32

// DocumentIndex returns the stored linear index of a content (by its SHA-256) made
// by linearisation version, if any.
func (c *core) DocumentIndex(ctx context.Context, sha string, version int) ([]byte, bool, error) {
	var data []byte
	err := c.q.QueryRowContext(ctx, "SELECT data FROM document_index WHERE sha256 = ? AND version = ?", sha, version).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read document index: %w", err)
	}
	return data, true, nil
}

// SaveDocumentIndex stores a content's linear index and keeps the cache bounded.
func (c *core) SaveDocumentIndex(ctx context.Context, sha string, version int, data []byte) error {
	if _, err := c.q.ExecContext(ctx, `INSERT INTO document_index (sha256, version, data, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (sha256, version) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`,
		sha, version, data, fmtTime(now())); err != nil {
		return fmt.Errorf("save document index: %w", err)
	}
	if _, err := c.q.ExecContext(ctx, `DELETE FROM document_index WHERE rowid NOT IN
		(SELECT rowid FROM document_index ORDER BY created_at DESC LIMIT ?)`, maxIndexes); err != nil {
		return fmt.Errorf("prune document index: %w", err)
	}
	return nil
}
