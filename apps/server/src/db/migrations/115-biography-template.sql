-- Issue 17 (keepsakes, every plan): the guided biography template. Owners and editors answer questions per
-- period of life in steps; each answer is saved as they go (one row per question) and the answers become a
-- first biography the family rewrites. The question keys are the contract's (packages/contract/src/keepsakes.ts).
CREATE TABLE biography_answers (
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  question_key text NOT NULL,
  text text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (memorial_id, question_key),
  CONSTRAINT biography_answers_key_format CHECK (question_key ~ '^[a-z0-9-]{1,40}$'),
  CONSTRAINT biography_answers_text_length CHECK (length(text) <= 4000)
);
