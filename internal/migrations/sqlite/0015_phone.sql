-- A user may bind one mainland mobile number (11 digits, no prefix); a
-- number belongs to at most one user. Guests and users without a phone
-- keep NULL, which the unique index allows any number of times.
ALTER TABLE users ADD COLUMN mobile TEXT;
CREATE UNIQUE INDEX users_mobile ON users(mobile);

-- Sessions remember what kind of device opened them, so the account
-- safety page can list "devices signed in" by something a person
-- recognises: the client's sysType and a short label from its User-Agent.
ALTER TABLE sessions ADD COLUMN sys_type TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';

-- SMS verification codes. Only an HMAC of the code is kept; a code is for
-- one purpose (bind, forget, pwd), expires, is used once and dies after a
-- few wrong tries. A new code for the same number and purpose replaces
-- the old one, so at most one is live.
CREATE TABLE sms_codes (
    mobile     TEXT NOT NULL,
    purpose    TEXT NOT NULL,
    code_hash  TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0,
    used_at    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (mobile, purpose)
);
