-- The guest token a one-time link was exchanged for is kept with the link (its jti), so it can be ended
-- with the link: when the invite is revoked or the member it made is removed, the guest tokens from its
-- links stop working (guests/tokens.ts refuses a token whose link row is ended). Only the ended ones are
-- indexed: the check on every guest request looks up a tiny index.
ALTER TABLE guest_link_tokens ADD COLUMN guest_token_id uuid;
ALTER TABLE guest_link_tokens ADD COLUMN guest_token_ended_at timestamptz;
ALTER TABLE guest_link_tokens
  ADD CONSTRAINT guest_link_tokens_ended_has_token CHECK (guest_token_ended_at IS NULL OR guest_token_id IS NOT NULL);
CREATE INDEX guest_link_tokens_ended_token_idx ON guest_link_tokens (guest_token_id)
  WHERE guest_token_ended_at IS NOT NULL;
CREATE INDEX guest_link_tokens_invite_idx ON guest_link_tokens (invite_id) WHERE invite_id IS NOT NULL;
