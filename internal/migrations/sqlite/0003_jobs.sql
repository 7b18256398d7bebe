-- The job queue (internal/platform/jobs). Times here are unix
-- milliseconds, not seconds like the other tables: retry backoff, leases and
-- heartbeats work at sub-second scale.
--   available  waiting for run_at, never tried (or released unfinished at shutdown)
--   retryable  failed, waiting for run_at to be tried again
--   running    claimed by locked_by until locked_until (the lease)
--   succeeded  done; pruned after a week
--   dead       gave up: max_attempts reached or the payload cannot be decoded;
--              last_error says why; pruned after a month
CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('available', 'retryable', 'running', 'succeeded', 'dead')),
    attempt      INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_at       BIGINT NOT NULL,
    locked_by    TEXT NOT NULL DEFAULT '',
    locked_until BIGINT NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    unique_key   TEXT,
    created_at   BIGINT NOT NULL,
    finished_at  BIGINT NOT NULL DEFAULT 0
);
-- NULL keys do not collide on either engine, so only jobs that ask for
-- de-duplication pay for it. A key stays taken as long as its row exists.
CREATE UNIQUE INDEX jobs_unique_key ON jobs (unique_key);
-- What a worker claims next, and what the rescuer and the pruner look for;
-- partial so finished rows, the bulk of the table, stay out of them.
CREATE INDEX jobs_ready ON jobs (run_at, id) WHERE state IN ('available', 'retryable');
CREATE INDEX jobs_lease ON jobs (locked_until) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (state, finished_at) WHERE state IN ('succeeded', 'dead');

-- The session purge (account.purge_sessions, the queue's first user) deletes
-- expired and long-revoked sessions in small batches; without these each
-- batch would scan the whole sessions table.
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX sessions_revoked ON sessions (revoked_at) WHERE revoked_at > 0;
