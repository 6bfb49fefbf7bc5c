-- An owner deletes a memorial (issue 21, item 3; docs/privacy.md). It is hidden at once from everyone,
-- members included (shared/memorial-access.ts), and read-only (status 'archived'); an owner can restore it
-- until `remove_after` (30 days), after which the job `memorial.purge-deleted` removes it with its media.
ALTER TABLE memorials
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN deleted_by text REFERENCES users (id) ON DELETE SET NULL,
  -- The status to return to on restore.
  ADD COLUMN status_before_delete text,
  ADD CONSTRAINT memorials_deleted_consistent CHECK (
    (deleted_at IS NULL) = (status_before_delete IS NULL)
    AND (deleted_at IS NULL OR (status = 'archived' AND remove_after IS NOT NULL)));
CREATE INDEX memorials_deleted_idx ON memorials (deleted_at) WHERE deleted_at IS NOT NULL;

-- The memorial's own audit log goes with it; this keeps that it happened (who, when), not what it held.
CREATE TABLE memorial_removals (
  memorial_id uuid PRIMARY KEY,
  deleted_by text REFERENCES users (id) ON DELETE SET NULL,
  deleted_at timestamptz NOT NULL,
  removed_at timestamptz NOT NULL DEFAULT now()
);
