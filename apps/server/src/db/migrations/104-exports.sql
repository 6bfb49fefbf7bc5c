-- Exports (docs/exports.md): a zip of a whole memorial (for its owners) or of one person's own data,
-- prepared by a background job into media storage under `<export id>/export.zip` and mailed as a signed,
-- expiring link. Deleting a row (its memorial or its user deleted, or replaced by a newer export) queues
-- the deletion of its file, as for media.
CREATE TABLE exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  memorial_id uuid REFERENCES memorials (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'preparing',
  storage_key text,
  size_bytes bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  expires_at timestamptz,
  CONSTRAINT exports_kind_check CHECK (kind IN ('memorial', 'personal')),
  CONSTRAINT exports_status_check CHECK (status IN ('preparing', 'ready', 'failed')),
  CONSTRAINT exports_memorial_kind CHECK ((kind = 'memorial') = (memorial_id IS NOT NULL)),
  CONSTRAINT exports_ready_has_file CHECK (status <> 'ready' OR (storage_key IS NOT NULL AND expires_at IS NOT NULL))
);
CREATE INDEX exports_memorial_idx ON exports (memorial_id, created_at DESC) WHERE memorial_id IS NOT NULL;
CREATE INDEX exports_user_idx ON exports (user_id, kind, created_at DESC);

CREATE TRIGGER exports_delete_files AFTER DELETE ON exports
  FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();
