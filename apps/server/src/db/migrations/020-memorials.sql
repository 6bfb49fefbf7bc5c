CREATE TABLE memorials (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL,
  last_name text NOT NULL,
  birth_date date,
  death_date date,
  birth_place text,
  death_place text,
  quote text,
  status text NOT NULL DEFAULT 'concept',
  visibility text NOT NULL DEFAULT 'private',
  -- The 8-digit access code: looked up by a keyed hash (HMAC), shown to managers from its encrypted form.
  access_code_hash text NOT NULL,
  access_code_encrypted text NOT NULL,
  -- Bumped when the code is regenerated; guest tokens carry it, so older tokens stop working.
  access_code_version integer NOT NULL DEFAULT 1,
  created_by text NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorials_status_check CHECK (status IN ('concept', 'active', 'archived')),
  CONSTRAINT memorials_visibility_check CHECK (visibility IN ('private', 'public')),
  CONSTRAINT memorials_first_name_not_blank CHECK (length(btrim(first_name)) > 0),
  CONSTRAINT memorials_last_name_not_blank CHECK (length(btrim(last_name)) > 0),
  CONSTRAINT memorials_dates_in_order CHECK (birth_date IS NULL OR death_date IS NULL OR birth_date <= death_date),
  CONSTRAINT memorials_access_code_hash_key UNIQUE (access_code_hash)
);

CREATE TABLE memorial_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_members_role_check CHECK (role IN ('owner', 'editor', 'contributor', 'guest')),
  CONSTRAINT memorial_members_memorial_user_key UNIQUE (memorial_id, user_id)
);
CREATE INDEX memorial_members_user_idx ON memorial_members (user_id, memorial_id);
