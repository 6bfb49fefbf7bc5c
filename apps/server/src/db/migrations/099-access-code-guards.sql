-- Issue 13.10: access codes above the global budget, per memorial, and invite-only pages.

-- An attempt may be answered with a proof-of-work challenge instead of being judged (the global budget of
-- wrong codes is used up); such an attempt is neither a failure nor a success.
ALTER TABLE access_code_attempts DROP CONSTRAINT access_code_attempts_outcome_check;
ALTER TABLE access_code_attempts ADD CONSTRAINT access_code_attempts_outcome_check
  CHECK (outcome IN ('pending', 'failed', 'succeeded', 'limited', 'challenged'));

-- A solved challenge is used once: its signature is kept until the challenge would have expired anyway.
CREATE TABLE access_code_pow_used (
  signature text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX access_code_pow_used_expires_idx ON access_code_pow_used (expires_at);

-- Alerts sent at most once per period (the team told that the global budget was exceeded).
CREATE TABLE access_code_alerts (
  kind text PRIMARY KEY,
  sent_at timestamptz NOT NULL
);

-- Attempts that name a memorial (links in mails and on printed cards) are checked against that memorial
-- only and counted here: failures in the current 15-minute window, a lock that doubles each time it is
-- set (15, 30, 60 ... minutes, capped), and the total of failures, so the owner is told once at 100.
CREATE TABLE memorial_code_guards (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  window_start timestamptz NOT NULL DEFAULT now(),
  window_failures integer NOT NULL DEFAULT 0,
  locks integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_failure_at timestamptz,
  total_failures integer NOT NULL DEFAULT 0,
  owner_told_at timestamptz
);

-- An invite-only page has no access code that works: only invitations (and their one-time links) open it.
ALTER TABLE memorials ADD COLUMN invite_only boolean NOT NULL DEFAULT false;
