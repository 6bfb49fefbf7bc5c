-- Issue 17 (keepsakes): the memory presentation. Every plan: one music file per page for the slideshow,
-- checked by content and stored in media storage under `<music id>/music`. Premium (`advancedVideo`): the
-- builder's choices per page, and MP4 exports rendered by a background job into `<video id>/video.mp4`.
-- Deleting a music or video row (replaced, removed, or its memorial deleted) queues the deletion of its
-- file, as for media.
CREATE TABLE presentation_music (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL UNIQUE REFERENCES memorials (id) ON DELETE CASCADE,
  storage_key text NOT NULL,
  content_type text NOT NULL,
  file_name text,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  duration_ms integer NOT NULL,
  uploaded_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT presentation_music_type_check CHECK (content_type IN ('audio/mpeg', 'audio/mp4', 'audio/ogg')),
  CONSTRAINT presentation_music_duration_check CHECK (duration_ms > 0)
);
CREATE TRIGGER presentation_music_delete_files AFTER DELETE ON presentation_music
  FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();

CREATE TABLE presentation_settings (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  slides jsonb NOT NULL,
  seconds_per_slide integer NOT NULL,
  title_text text,
  closing_text text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT presentation_settings_seconds_check CHECK (seconds_per_slide BETWEEN 1 AND 30),
  CONSTRAINT presentation_settings_slides_check CHECK (jsonb_typeof(slides) = 'array')
);

CREATE TABLE presentation_videos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  requested_by text REFERENCES users (id) ON DELETE SET NULL,
  resolution text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  progress real NOT NULL DEFAULT 0,
  storage_key text,
  size_bytes bigint,
  duration_ms integer,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  expires_at timestamptz,
  CONSTRAINT presentation_videos_resolution_check CHECK (resolution IN ('1080p', '720p')),
  CONSTRAINT presentation_videos_status_check CHECK (status IN ('queued', 'rendering', 'ready', 'failed')),
  CONSTRAINT presentation_videos_ready_has_file CHECK (status <> 'ready' OR (storage_key IS NOT NULL AND expires_at IS NOT NULL))
);
CREATE INDEX presentation_videos_memorial_idx ON presentation_videos (memorial_id, created_at DESC);
CREATE TRIGGER presentation_videos_delete_files AFTER DELETE ON presentation_videos
  FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();
