-- Invitations (internal/rewards, invite*.go). One settings row the
-- operator edits; a code per user made on first ask; one binding per
-- invitee, ever; one rewarded invitee per device.
CREATE TABLE invite_config (
    id           SMALLINT PRIMARY KEY,
    reward_coins BIGINT NOT NULL,
    window_days  INTEGER NOT NULL,
    daily_cap    INTEGER NOT NULL,
    rules        TEXT NOT NULL DEFAULT '',
    updated_at   BIGINT NOT NULL DEFAULT 0
);
INSERT INTO invite_config (id, reward_coins, window_days, daily_cap, rules, updated_at) VALUES (1, 50, 7, 20, '', 0);

CREATE TABLE invite_codes (
    user_id    BIGINT PRIMARY KEY REFERENCES users(id),
    code       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX invite_codes_code ON invite_codes (code);

-- reward_state: pending (invitee not registered yet), rewarded, device
-- (the invitee's device already earned an inviter a reward), capped (the
-- inviter's daily cap was reached), off (reward set to 0 by the operator).
CREATE TABLE invite_bindings (
    invitee_id    BIGINT PRIMARY KEY REFERENCES users(id),
    inviter_id    BIGINT NOT NULL REFERENCES users(id),
    dev_id        TEXT NOT NULL DEFAULT '',
    source        TEXT NOT NULL,
    bound_at      BIGINT NOT NULL,
    registered_at BIGINT NOT NULL DEFAULT 0,
    reward_state  TEXT NOT NULL DEFAULT 'pending',
    reward_coins  BIGINT NOT NULL DEFAULT 0,
    rewarded_at   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX invite_bindings_inviter ON invite_bindings (inviter_id, bound_at);
CREATE INDEX invite_bindings_rewarded ON invite_bindings (inviter_id, rewarded_at);

CREATE TABLE invite_reward_devices (
    dev_id     TEXT PRIMARY KEY,
    invitee_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL
);
