package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DocumentCache is the parsed index of a document's current text, with what
// the file looked like when it was made: a book whose file still has that
// size, modification time, inode and status-change time holds that text
// (SHA256, after any byte-order mark; FileSHA256 of the file's bytes), so
// opening it needs neither a parse nor a hash. There is one per document,
// replaced when the text changes: the cache never grows with the history.
type DocumentCache struct {
	DocID       int64
	Version     int // the linearisation that made Data
	SHA256      string
	FileSHA256  string
	FileSize    int64
	FileMtimeNs int64
	FileIno     int64
	FileCtimeNs int64
	Data        []byte
}

// DocumentCache returns the cached index of a document, if any.
func (c *core) DocumentCache(ctx context.Context, docID int64) (DocumentCache, bool, error) {
	d := DocumentCache{DocID: docID}
	err := c.q.QueryRowContext(ctx, `SELECT version, sha256, file_sha256, file_size, file_mtime_ns, file_ino, file_ctime_ns, data
		FROM document_cache WHERE doc_id = ?`, docID).Scan(&d.Version, &d.SHA256, &d.FileSHA256, &d.FileSize, &d.FileMtimeNs, &d.FileIno, &d.FileCtimeNs, &d.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return DocumentCache{}, false, nil
	}
	if err != nil {
		return DocumentCache{}, false, fmt.Errorf("read the index cache of document %d: %w", docID, err)
	}
	return d, true, nil
}

// SaveDocumentCache replaces the cached index of a document.
func (c *core) SaveDocumentCache(ctx context.Context, d DocumentCache) error {
	if _, err := c.q.ExecContext(ctx, `INSERT INTO document_cache
		(doc_id, version, sha256, file_sha256, file_size, file_mtime_ns, file_ino, file_ctime_ns, updated_at, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (doc_id) DO UPDATE SET version = excluded.version, sha256 = excluded.sha256,
			file_sha256 = excluded.file_sha256, file_size = excluded.file_size, file_mtime_ns = excluded.file_mtime_ns,
			file_ino = excluded.file_ino, file_ctime_ns = excluded.file_ctime_ns, updated_at = excluded.updated_at, data = excluded.data`,
		d.DocID, d.Version, d.SHA256, d.FileSHA256, d.FileSize, d.FileMtimeNs, d.FileIno, d.FileCtimeNs, fmtTime(now()), nonNil(d.Data)); err != nil {
		return fmt.Errorf("save the index cache of document %d: %w", d.DocID, err)
	}
	return nil
}
