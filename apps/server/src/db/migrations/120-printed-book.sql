-- The printed book (issue 17, Premium; docs/keepsakes.md 'Printed book'): a print-ready A5 PDF of a
-- memorial, rendered by a background job into media storage under `<book id>/book.pdf`. One book per
-- memorial: a new request replaces the older one. Deleting a row (replaced, or its memorial deleted)
-- queues the deletion of its file, as for media and exports.
CREATE TABLE printed_books (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  requested_by text REFERENCES users (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'queued',
  progress smallint NOT NULL DEFAULT 0,
  bleed boolean NOT NULL DEFAULT false,
  crop_marks boolean NOT NULL DEFAULT false,
  storage_key text,
  size_bytes bigint,
  page_count integer,
  warnings jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  CONSTRAINT printed_books_status_check CHECK (status IN ('queued', 'rendering', 'ready', 'failed')),
  CONSTRAINT printed_books_progress_check CHECK (progress BETWEEN 0 AND 100),
  CONSTRAINT printed_books_ready_has_file CHECK (status <> 'ready' OR storage_key IS NOT NULL)
);
CREATE UNIQUE INDEX printed_books_memorial_idx ON printed_books (memorial_id);

CREATE TRIGGER printed_books_delete_files AFTER DELETE ON printed_books
  FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();
