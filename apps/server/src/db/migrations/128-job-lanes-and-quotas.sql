-- Heavy work (video renders, exports, printed books) is limited per memorial and per account when it is
-- queued: the job carries whom it is for, and the active ones are counted by these indexes.
ALTER TABLE jobs ADD COLUMN memorial_id uuid;
ALTER TABLE jobs ADD COLUMN requested_by text;
CREATE INDEX jobs_active_memorial_idx ON jobs (memorial_id, kind)
  WHERE status IN ('queued', 'running') AND memorial_id IS NOT NULL;
CREATE INDEX jobs_active_requester_idx ON jobs (requested_by, kind)
  WHERE status IN ('queued', 'running') AND requested_by IS NOT NULL;

-- Why an export or a book was not made (the requester lost the role the request needed, …).
ALTER TABLE exports ADD COLUMN error text;
ALTER TABLE printed_books ADD COLUMN error text;
