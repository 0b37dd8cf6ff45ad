-- 0005_history_triggers.sql: the history is append-only again after the
-- compaction of 0004 (the same triggers as 0001).
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
