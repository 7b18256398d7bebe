-- Operators are users with role 'operator'; everyone else is 'user'. The
-- role is read with the session on every request, so a demotion takes
-- effect on the operator's next call.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'operator'));
-- Counting operators (the last one may not be demoted) reads only this.
CREATE INDEX users_operators ON users (id) WHERE role = 'operator';

-- The audit log: one row per operator action, written in the transaction
-- of the action itself, so an action without its row cannot commit.
-- actor_uid 0 is the command line (prima admin ...). before/after are JSON
-- text of the changed fields, NULL when there is nothing to show.
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    actor_uid   BIGINT NOT NULL,
    action      TEXT NOT NULL,
    target_type TEXT NOT NULL DEFAULT '',
    target_id   TEXT NOT NULL DEFAULT '',
    before      TEXT,
    after       TEXT,
    ip          TEXT NOT NULL DEFAULT '',
    request_id  TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL
);
-- Newest first, optionally narrowed by actor, action or target: each filter
-- has an index that ends in id, so a page is an index range.
CREATE INDEX audit_log_actor ON audit_log (actor_uid, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
CREATE INDEX audit_log_target ON audit_log (target_type, target_id, id);
