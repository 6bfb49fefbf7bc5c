-- The mail outbox (docs/decisions/010-mail-outbox.md): every mail is written here, rendered, in the same
-- transaction as the change that causes it, together with a `mail.send` job (migration 030) that delivers
-- it. A rolled-back change leaves no mail; a mail server that is down delays mail and loses none.
-- A sent mail keeps its envelope and subject but not its body (links and codes in it are secrets); a mail
-- that failed every attempt keeps everything, so it can be looked into and sent again.
CREATE TABLE mail_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  to_addresses text[] NOT NULL,
  reply_to text,
  subject text NOT NULL,
  text_body text,
  html_body text,
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  failed_at timestamptz,
  CONSTRAINT mail_outbox_status_check CHECK (status IN ('queued', 'sent', 'failed')),
  CONSTRAINT mail_outbox_has_recipient CHECK (cardinality(to_addresses) >= 1),
  CONSTRAINT mail_outbox_body_until_sent CHECK (status = 'sent' OR text_body IS NOT NULL),
  CONSTRAINT mail_outbox_sent_at_check CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);
CREATE INDEX mail_outbox_open_idx ON mail_outbox (created_at) WHERE status <> 'sent';
