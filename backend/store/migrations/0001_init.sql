-- 0001_init.sql: the first schema of a Waymark profile database.
--
-- Times are TEXT in UTC, fixed width ("2006-01-02T15:04:05.000000000Z"), so they
-- sort as text and stay readable in the sqlite3 shell. Booleans are 0/1.
-- Big blobs sit in the last columns (or in their own table, for snapshots) so
-- that reading the small columns of a row never walks a blob's overflow pages.

CREATE TABLE documents (
    id         INTEGER PRIMARY KEY,
    path       TEXT    NOT NULL UNIQUE,
    created_at TEXT    NOT NULL
);

-- One row per step of a document's history. Append-only: only the undo/redo
-- bookkeeping flags may change (enforced by the triggers below).
CREATE TABLE revisions (
    doc_id     INTEGER NOT NULL REFERENCES documents (id),
    rev        INTEGER NOT NULL CHECK (rev >= 1),
    op         TEXT    NOT NULL CHECK (op IN ('open', 'external', 'ReplaceText', 'InsertAfter',
                                               'InsertBefore', 'Delete', 'Undo', 'Redo', 'Restore')),
    start      INTEGER NOT NULL CHECK (start >= 0),
    sha256     TEXT    NOT NULL CHECK (length(sha256) = 64),
    size       INTEGER NOT NULL CHECK (size >= 0),
    undo_of    INTEGER NOT NULL DEFAULT 0 CHECK (undo_of >= 0),
    summary    TEXT    NOT NULL DEFAULT '',
    undone     INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    consumed   INTEGER NOT NULL DEFAULT 0 CHECK (consumed IN (0, 1)),
    created_at TEXT    NOT NULL,
    old        BLOB    NOT NULL,
    new        BLOB    NOT NULL,
    UNIQUE (doc_id, rev)
);
CREATE INDEX revisions_by_op ON revisions (doc_id, op, undone, rev);
CREATE INDEX revisions_by_sha ON revisions (doc_id, sha256, rev);

-- Full content after a revision, kept apart from revisions so that history
-- scans never touch these (possibly many-megabyte) rows.
CREATE TABLE snapshots (
    doc_id  INTEGER NOT NULL,
    rev     INTEGER NOT NULL,
    content BLOB    NOT NULL,
    PRIMARY KEY (doc_id, rev),
    FOREIGN KEY (doc_id, rev) REFERENCES revisions (doc_id, rev)
);

CREATE TRIGGER revisions_append_only
BEFORE UPDATE OF doc_id, rev, op, start, sha256, size, undo_of, summary, created_at, old, new ON revisions
BEGIN
    SELECT RAISE(ABORT, 'revisions are append-only: only undone and consumed may change');
END;
CREATE TRIGGER revisions_no_delete BEFORE DELETE ON revisions
BEGIN
    SELECT RAISE(ABORT, 'revisions are append-only: rows may not be deleted');
END;
CREATE TRIGGER snapshots_append_only BEFORE UPDATE ON snapshots
BEGIN
    SELECT RAISE(ABORT, 'snapshots are append-only');
END;
CREATE TRIGGER snapshots_no_delete BEFORE DELETE ON snapshots
BEGIN
    SELECT RAISE(ABORT, 'snapshots are append-only: rows may not be deleted');
END;

-- Named cursors (batch readers) of a document, so a long pass over a novel
-- survives a restart.
CREATE TABLE cursors (
    doc_id          INTEGER NOT NULL REFERENCES documents (id),
    name            TEXT    NOT NULL,
    forward         INTEGER NOT NULL CHECK (forward IN (0, 1)),
    max_elements    INTEGER NOT NULL,
    max_bytes       INTEGER NOT NULL,
    include_content INTEGER NOT NULL CHECK (include_content IN (0, 1)),
    next_index      INTEGER NOT NULL,
    next_offset     INTEGER NOT NULL DEFAULT -1,
    rev             INTEGER NOT NULL DEFAULT 0,
    complete        INTEGER NOT NULL CHECK (complete IN (0, 1)),
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (doc_id, name)
) WITHOUT ROWID;

-- Persistent, named sets of items of a document.
CREATE TABLE target_sets (
    id         TEXT    PRIMARY KEY,
    doc_id     INTEGER NOT NULL REFERENCES documents (id),
    name       TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
CREATE INDEX target_sets_by_doc ON target_sets (doc_id, created_at);

-- No UNIQUE index on (set_id, byte_offset): SQLite checks uniqueness row by row
-- during an UPDATE, so shifting offsets (offset = offset + n) could fail
-- half-way. Duplicates among alive members are prevented by the code instead.
CREATE TABLE target_members (
    id             INTEGER PRIMARY KEY,
    set_id         TEXT    NOT NULL REFERENCES target_sets (id) ON DELETE CASCADE,
    byte_offset    INTEGER NOT NULL CHECK (byte_offset >= 0),
    rev            INTEGER NOT NULL CHECK (rev >= 0),
    deleted_in_rev INTEGER NOT NULL DEFAULT 0 CHECK (deleted_in_rev >= 0),
    label          TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX target_members_by_set ON target_members (set_id, byte_offset);

-- Activity log. doc_id has no foreign key on purpose: logging must never fail
-- because of what it logs about.
CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT    NOT NULL,
    doc_id     INTEGER,
    data       TEXT    NOT NULL DEFAULT 'null' CHECK (json_valid(data)),
    created_at TEXT    NOT NULL
);
CREATE INDEX events_by_kind ON events (kind, id);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
) WITHOUT ROWID;

-- For later issues: conversation sessions and their transcripts.
CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('document', 'browser')),
    doc_id     INTEGER REFERENCES documents (id),
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    state      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(state))
);
CREATE INDEX sessions_by_doc ON sessions (doc_id);

CREATE TABLE transcript (
    id         INTEGER PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    role       TEXT    NOT NULL,
    content    TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (session_id, seq)
);

-- Resumable state of long-running agent tasks.
CREATE TABLE agent_state (
    task_id    TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    data       TEXT NOT NULL CHECK (json_valid(data)),
    updated_at TEXT NOT NULL
) WITHOUT ROWID;
