-- Issue 16, items 4, 5 and 7 (docs/funeral-day.md, docs/decisions/014-scheduled-mail-on-the-job-queue.md):
-- future messages from the family, anniversary reminders for whoever asked, and a delivery record per
-- message and recipient so that a re-run never mails twice.

-- A visitor's (or member's) consent to mail from one page, per kind: 'messages' (the family's future
-- messages), 'birthday', 'deathday', 'remembrance' (remembrance days; sent by another feature). Double
-- opt-in: the kinds asked for wait in pending_kinds until the link in the confirmation mail is followed.
CREATE TABLE memorial_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  email text NOT NULL,
  name text,
  kinds text[] NOT NULL DEFAULT '{}',
  pending_kinds text[] NOT NULL DEFAULT '{}',
  -- sha256 of the confirmation token (hex); NULL once confirmed.
  confirm_token_hash text,
  confirm_expires_at timestamptz,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_subscriptions_kinds_check
    CHECK (kinds <@ ARRAY['messages', 'birthday', 'deathday', 'remembrance']::text[]
           AND pending_kinds <@ ARRAY['messages', 'birthday', 'deathday', 'remembrance']::text[])
);
CREATE UNIQUE INDEX memorial_subscriptions_address_key ON memorial_subscriptions (memorial_id, lower(email));
CREATE UNIQUE INDEX memorial_subscriptions_confirm_key ON memorial_subscriptions (confirm_token_hash)
  WHERE confirm_token_hash IS NOT NULL;

-- One click in a mail switched this kind of mail from this page off for this address (members included,
-- who get the family's messages without signing up). Signing up again (confirmed) removes it.
CREATE TABLE memorial_mail_opt_outs (
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  email_lower text NOT NULL,
  kind text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (memorial_id, email_lower, kind)
);

-- A message the family writes now, sent on a chosen moment to everyone connected to the page.
CREATE TABLE future_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  subject text NOT NULL,
  body text NOT NULL,
  send_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'scheduled',
  recipient_count int,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  cancelled_at timestamptz,
  CONSTRAINT future_messages_status_check CHECK (status IN ('scheduled', 'sent', 'cancelled'))
);
CREATE INDEX future_messages_memorial_idx ON future_messages (memorial_id, send_at);
CREATE INDEX future_messages_due_idx ON future_messages (send_at) WHERE status = 'scheduled';

-- Scheduled mail handed to the outbox: one row per occasion ('future-message:<id>',
-- 'reminder:<memorial>:birthday:<date>', …) and recipient. The unique key is what makes a re-run (another
-- process, a restart, a retried job) skip an address that already got this mail.
CREATE TABLE scheduled_mail_deliveries (
  occasion text NOT NULL,
  email_lower text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (occasion, email_lower)
);

-- Headers a mail carries besides the usual ones (List-Unsubscribe, List-Unsubscribe-Post).
ALTER TABLE mail_outbox ADD COLUMN headers jsonb;
