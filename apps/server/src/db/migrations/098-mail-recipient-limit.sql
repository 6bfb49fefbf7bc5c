-- Per-recipient mail limit (docs/security.md, item 5): a mail to an address that has not proven itself,
-- caused by someone else (an invitation, an access-code mail, a partner confirmation) or asked for by
-- anyone (a verification or reset mail), carries the address it counts against, with its group:
-- 'invitation:<address>' or 'account:<address>' (lower case). Counting these rows of the last day, under a
-- transaction lock on the key, keeps an address at MAIL_PER_RECIPIENT_PER_DAY per group across processes.
ALTER TABLE mail_outbox ADD COLUMN recipient_limit_key text;
CREATE INDEX mail_outbox_recipient_limit_idx ON mail_outbox (recipient_limit_key, created_at)
  WHERE recipient_limit_key IS NOT NULL;
