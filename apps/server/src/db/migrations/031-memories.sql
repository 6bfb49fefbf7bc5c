-- Memories on a memorial's wall. A concept is seen by its author only; publishing makes it
-- 'published' (author may publish) or 'pending' (guest author) until an editor or owner decides.
CREATE TABLE memories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  year_label text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'concept',
  members_only boolean NOT NULL DEFAULT false,
  author_kind text NOT NULL,
  author_user_id text REFERENCES users (id) ON DELETE SET NULL,
  -- A guest (access code) is recognised by the id of the guest token it wrote with.
  author_guest_token_id text,
  -- The name shown: the name a guest gave, or the user's name when the memory was written.
  author_name text,
  published_at timestamptz,
  moderated_by text REFERENCES users (id) ON DELETE SET NULL,
  moderated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memories_status_check CHECK (status IN ('concept', 'pending', 'published', 'rejected')),
  CONSTRAINT memories_author_kind_check CHECK (author_kind IN ('user', 'guest')),
  CONSTRAINT memories_guest_author_named CHECK (
    author_kind <> 'guest' OR (author_guest_token_id IS NOT NULL AND length(btrim(coalesce(author_name, ''))) > 0)),
  CONSTRAINT memories_user_author_no_token CHECK (author_kind <> 'user' OR author_guest_token_id IS NULL),
  CONSTRAINT memories_year_label_length CHECK (length(btrim(year_label)) BETWEEN 1 AND 40),
  CONSTRAINT memories_body_length CHECK (length(body) BETWEEN 1 AND 5000),
  CONSTRAINT memories_published_has_time CHECK (status <> 'published' OR published_at IS NOT NULL),
  -- Lets media reference (memory, memorial) together, so a memory's photo is on the same memorial.
  CONSTRAINT memories_id_memorial_key UNIQUE (id, memorial_id)
);
-- The wall: one memorial, one status, newest first, keyset-paginated.
CREATE INDEX memories_wall_idx ON memories (memorial_id, status, created_at DESC, id DESC);
CREATE INDEX memories_author_user_idx ON memories (author_user_id, created_at DESC, id DESC)
  WHERE author_user_id IS NOT NULL;
CREATE INDEX memories_author_guest_idx ON memories (author_guest_token_id, created_at DESC, id DESC)
  WHERE author_guest_token_id IS NOT NULL;

-- Loved-by: one row per person (a user, or a guest by guest token) per memory.
CREATE TABLE memory_loves (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  guest_token_id text,
  -- The name at the time, for the initials shown with the memory.
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memory_loves_one_lover CHECK ((user_id IS NULL) <> (guest_token_id IS NULL))
);
CREATE UNIQUE INDEX memory_loves_user_key ON memory_loves (memory_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX memory_loves_guest_key ON memory_loves (memory_id, guest_token_id) WHERE guest_token_id IS NOT NULL;
CREATE INDEX memory_loves_memory_idx ON memory_loves (memory_id, created_at, id);
