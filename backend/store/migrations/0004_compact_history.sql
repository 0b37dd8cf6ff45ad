-- 0004_compact_history.sql: a revision stores the bytes it changed, not the
-- book (issue 19, point 3). Earlier versions stored a whole-book splice when
-- typing ended a paragraph (6 MB twice for one letter), a full snapshot every
-- 50 edits and with every outside change or restore, and one parsed index per
-- content hash. The Go step of this version (compactHistory, store/compact.go)
-- trims every splice to the bytes that differ, turns whole-text revisions into
-- splices, and drops the snapshots that replay makes redundant; every
-- revision's content stays the same (checked against its stored hash). The
-- append-only triggers are lifted for it and put back by 0005.
DROP TRIGGER revisions_append_only;
DROP TRIGGER revisions_no_delete;
DROP TRIGGER snapshots_append_only;
DROP TRIGGER snapshots_no_delete;

-- The parsed index of a manuscript's current text only: one row per document,
-- replaced when the text changes, validated by the file's size, modification
-- time, inode and status-change time (and naming the text's hash), so a CLI
-- call on an unchanged book neither parses nor hashes it.
DROP TABLE document_index;
CREATE TABLE document_cache (
    doc_id        INTEGER PRIMARY KEY REFERENCES documents (id),
    version       INTEGER NOT NULL,
    sha256        TEXT    NOT NULL,
    file_sha256   TEXT    NOT NULL,
    file_size     INTEGER NOT NULL,
    file_mtime_ns INTEGER NOT NULL,
    file_ino      INTEGER NOT NULL,
    file_ctime_ns INTEGER NOT NULL,
    updated_at    TEXT    NOT NULL,
    data          BLOB    NOT NULL
);
