-- Photos and videos: in a memorial's gallery (memory_id NULL) or on a memory. Files live in
-- storage under '<media id>/<variant>'; the rows say which variants exist.
CREATE TABLE media (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  memory_id uuid,
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'processing',
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  width integer,
  height integer,
  caption text,
  position integer NOT NULL,
  -- The uploaded image until every variant exists (it may carry EXIF/GPS, so it is never served
  -- and is deleted after processing); null for videos, which are stored as the 'original' variant.
  source_key text,
  uploaded_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  uploaded_by_guest_token_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT media_kind_check CHECK (kind IN ('image', 'video')),
  CONSTRAINT media_status_check CHECK (status IN ('processing', 'ready', 'failed')),
  CONSTRAINT media_content_type_check CHECK (
    (kind = 'image' AND content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'))
    OR (kind = 'video' AND content_type IN ('video/mp4', 'video/webm'))),
  CONSTRAINT media_size_check CHECK (size_bytes > 0 AND size_bytes <= 104857600),
  CONSTRAINT media_image_dimensions CHECK (kind <> 'image' OR (width > 0 AND height > 0 AND width::bigint * height <= 50000000)),
  CONSTRAINT media_caption_length CHECK (caption IS NULL OR length(caption) <= 500),
  CONSTRAINT media_position_check CHECK (position >= 0),
  CONSTRAINT media_memory_same_memorial_fkey FOREIGN KEY (memory_id, memorial_id)
    REFERENCES memories (id, memorial_id) ON DELETE CASCADE,
  -- One position per list (the gallery, or one memory); checked per statement, so a reorder can
  -- permute positions in one UPDATE.
  CONSTRAINT media_position_key UNIQUE NULLS NOT DISTINCT (memorial_id, memory_id, position) DEFERRABLE,
  CONSTRAINT media_id_memorial_key UNIQUE (id, memorial_id)
);
CREATE INDEX media_memory_idx ON media (memory_id, position, id) WHERE memory_id IS NOT NULL;
CREATE INDEX media_gallery_kind_idx ON media (memorial_id, kind, position, id) WHERE memory_id IS NULL;

CREATE TABLE media_variants (
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  name text NOT NULL,
  content_type text NOT NULL,
  width integer,
  height integer,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT media_variants_pkey PRIMARY KEY (media_id, name),
  CONSTRAINT media_variants_name_format CHECK (name ~ '^(w[0-9]{1,5}\.(webp|jpg)|original)$'),
  CONSTRAINT media_variants_size_check CHECK (size_bytes > 0)
);

-- However a media row goes (its own delete, its memory's, its memorial's), its files follow.
CREATE FUNCTION media_enqueue_file_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (kind, payload, max_attempts)
  VALUES ('media.delete-files', jsonb_build_object('mediaId', OLD.id), 10);
  RETURN OLD;
END
$$;
CREATE TRIGGER media_delete_files AFTER DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();

-- The memorial's cover: one of its own media; removing the media clears the cover.
ALTER TABLE memorials ADD COLUMN IF NOT EXISTS cover_media_id uuid;
ALTER TABLE memorials ADD CONSTRAINT memorials_cover_media_fkey FOREIGN KEY (cover_media_id, id)
  REFERENCES media (id, memorial_id) ON DELETE SET NULL (cover_media_id);
