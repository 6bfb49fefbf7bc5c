-- Memories from visitors of a public page (docs/decisions/025-visitor-memories.md). A visitor without an
-- account writes a memory with a name and an e-mail address; it is kept as a concept that nobody sees until
-- the address is confirmed through the mailed link, and then waits in the page's moderation queue
-- ('pending') like a guest's memory. The memory row is an ordinary guest memory whose author token is
-- 'visitor:<memory id>' (no guest token ever has that form), so every reader of memories (wall, moderation,
-- export, printed book, presentation) handles it without knowing about visitors.
--
-- The address lives in its own row, never in `memories`: no read of a memory can show it. It goes with the
-- memory (and with the page).

-- The family's choice per page; off until they turn it on.
ALTER TABLE memorials ADD COLUMN visitor_memories boolean NOT NULL DEFAULT false;

CREATE TABLE memory_visitors (
  memory_id uuid PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  email text NOT NULL,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memory_visitors_email_length CHECK (length(email) BETWEEN 3 AND 254)
);
-- Unconfirmed submissions are swept once their link has expired.
CREATE INDEX memory_visitors_unconfirmed_idx ON memory_visitors (created_at) WHERE confirmed_at IS NULL;
CREATE INDEX memory_visitors_memorial_idx ON memory_visitors (memorial_id);
