-- The newest RSVP a service's last summary included, by the database's own clock: which RSVPs are new is
-- decided against it, not against the summary's time from the application's clock (a database server whose
-- clock runs a little ahead made an RSVP from before a summary look newer than it, and mailed it twice).
-- Null for summaries sent before this column: those compare against sent_at as before.
ALTER TABLE service_rsvp_summaries ADD COLUMN last_rsvp_at timestamptz;
