-- The anniversary and remembrance reminders are swept once a day (docs/funeral-day.md, 'Blijf verbonden'),
-- not on every minute's run: this row remembers the last Amsterdam day whose sweep finished, so a second run,
-- another process or a restart that day does not query the sign-ups again. A process sweeping holds the row
-- until `claimed_until`; one that died meanwhile is taken over after that (the deliveries' unique key keeps
-- an address from getting a reminder twice).
CREATE TABLE scheduled_mail_sweeps (
  name text PRIMARY KEY,
  swept_on date,
  claimed_until timestamptz,
  CONSTRAINT scheduled_mail_sweeps_name_check CHECK (name IN ('reminders'))
);
INSERT INTO scheduled_mail_sweeps (name) VALUES ('reminders');
