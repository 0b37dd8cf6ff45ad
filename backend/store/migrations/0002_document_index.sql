-- 0002_document_index.sql: the linear index of a manuscript's content, keyed by the
-- content's SHA-256, so that reopening an unchanged book skips the Markdown parse.
-- It is a cache: losing a row only costs one parse; version says which linearisation
-- made it.
CREATE TABLE document_index (
    sha256     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    data       BLOB    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (sha256, version)
);
