-- 0006_member_content.sql: TargetSet members follow their items by content
-- (issue 19, point 6). A member keeps a quote of its item (what it is called
-- when it cannot be followed), the hash of its item's Markdown (by which an
-- item cut and pasted, deleted and undone, comes back into its sets), why it
-- was lost.
ALTER TABLE target_members ADD COLUMN quote TEXT NOT NULL DEFAULT '';
ALTER TABLE target_members ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';
-- lost: '' (alive, or deleted before this version), 'deleted', 'rewritten'
-- (changed past recognition).
ALTER TABLE target_members ADD COLUMN lost TEXT NOT NULL DEFAULT '';
CREATE INDEX target_members_lost_by_hash ON target_members (content_hash) WHERE deleted_in_rev <> 0;
