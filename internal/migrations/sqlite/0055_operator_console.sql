-- The operator console's identity (internal/operator). An operator is a
-- registered user (users.role = 'operator') with a row here naming the
-- console role, which decides the /api/admin routes the operator opens.
-- Operators from before the console become owners: they could do
-- everything before.
CREATE TABLE operators (
    uid        BIGINT PRIMARY KEY REFERENCES users(id),
    role       TEXT NOT NULL CHECK (role IN ('owner', 'content', 'moderator', 'finance', 'support')),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- The owners are locked (in uid order) before a role change: the last one
-- may not go.
CREATE INDEX operators_role ON operators (role, uid);
INSERT INTO operators (uid, role, created_at, updated_at)
    SELECT id, 'owner', created_at, updated_at FROM users WHERE role = 'operator';

-- An operator's TOTP secret (RFC 6238), sealed with a key derived from the
-- install secret (AES-GCM), and the last time step whose code was accepted:
-- a code is taken only for a later step, so no code works twice.
CREATE TABLE operator_totp (
    uid        BIGINT PRIMARY KEY REFERENCES users(id),
    secret     TEXT NOT NULL,
    last_step  BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

-- One-time recovery codes, 10 per enrolment: only an HMAC of each is kept
-- (keyed by the install secret), used_at is set by the one use.
CREATE TABLE operator_recovery_codes (
    id         INTEGER PRIMARY KEY,
    uid        BIGINT NOT NULL REFERENCES users(id),
    code_hash  TEXT NOT NULL,
    used_at    BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX operator_recovery_codes_uid ON operator_recovery_codes (uid, code_hash);

-- Enrolment tickets: a sign-in with the right password and no TOTP yet
-- gets one (10 minutes, single use) with the secret it proposes; the
-- enrolment that answers it with a code from that secret stores it.
CREATE TABLE operator_enrol_tickets (
    ticket_hash TEXT PRIMARY KEY,
    uid         BIGINT NOT NULL REFERENCES users(id),
    secret      TEXT NOT NULL,
    tries       INTEGER NOT NULL DEFAULT 0,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);
CREATE INDEX operator_enrol_tickets_uid ON operator_enrol_tickets (uid);

-- Console sessions: a token is 32 random bytes, only its SHA-256 is kept.
-- A session ends 30 minutes after its last request or 12 hours after the
-- sign-in (expires_at), whichever comes first, or when revoked.
-- step_up_until: a TOTP or recovery code was entered less than 5 minutes
-- before it (the sign-in's own code counts).
CREATE TABLE operator_sessions (
    id            INTEGER PRIMARY KEY,
    token_hash    TEXT NOT NULL UNIQUE,
    uid           BIGINT NOT NULL REFERENCES users(id),
    created_at    BIGINT NOT NULL,
    last_seen_at  BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    step_up_until BIGINT NOT NULL DEFAULT 0,
    revoked_at    BIGINT NOT NULL DEFAULT 0,
    ip            TEXT NOT NULL DEFAULT '',
    user_agent    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operator_sessions_uid ON operator_sessions (uid, id);
