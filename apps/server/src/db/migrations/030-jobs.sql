-- A job queue in PostgreSQL for heavy work outside requests (image variants, file clean-up).
-- Workers claim due jobs with FOR UPDATE SKIP LOCKED, so several processes can poll one table
-- without running a job twice. Finished jobs stay a while with their timings, then are pruned.
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_at timestamptz,
  locked_by text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  CONSTRAINT jobs_status_check CHECK (status IN ('queued', 'running', 'done', 'failed')),
  CONSTRAINT jobs_kind_format CHECK (kind ~ '^[a-z][a-z0-9_.-]*$'),
  CONSTRAINT jobs_attempts_check CHECK (attempts >= 0 AND max_attempts >= 1)
);
CREATE INDEX jobs_due_idx ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX jobs_running_idx ON jobs (locked_at) WHERE status = 'running';
CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE status IN ('done', 'failed');
