-- Idempotency keys (docs/decisions/012-idempotency-keys.md): the first answer to a write sent with an
-- `Idempotency-Key` header, per caller, so a repeat of it (a retry after a lost answer) gets the same
-- answer instead of making the change twice. `running` while the first request is under way; the answer
-- is stored with the write's own transaction where the route can (candles), else right after it. Rows
-- expire after 24 hours; the job `idempotency.cleanup` deletes them.
CREATE TABLE idempotency_keys (
  caller text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status text NOT NULL DEFAULT 'running',
  response_status integer,
  response_type text,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  PRIMARY KEY (caller, key),
  CONSTRAINT idempotency_keys_status_check CHECK (status IN ('running', 'done')),
  CONSTRAINT idempotency_keys_done_has_answer CHECK (status <> 'done' OR response_status IS NOT NULL)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
