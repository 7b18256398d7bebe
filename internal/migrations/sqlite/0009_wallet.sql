-- VIP tiers keep their own expiry: vip_expire_at is the VIP (level 1)
-- tier's, svip_expire_at the super VIP (level 2) tier's. The active level
-- is the highest tier whose expiry is ahead, so a day of super VIP shows
-- level 2 for that day and the remaining VIP year resumes after it. The
-- single vip_level column could not say that; it goes.
ALTER TABLE users ADD COLUMN svip_expire_at BIGINT NOT NULL DEFAULT 0;
UPDATE users SET svip_expire_at = vip_expire_at, vip_expire_at = 0 WHERE vip_level = 2;
UPDATE users SET vip_expire_at = 0 WHERE vip_level = 0;
ALTER TABLE users DROP COLUMN vip_level;

-- VIP cards (GET /api/app/vip/product). price in cents, coins the price in
-- coins (0: not sold for coins); new_user cards are offered only to
-- accounts younger than 24 hours.
CREATE TABLE vip_products (
    id             INTEGER PRIMARY KEY,
    level          SMALLINT NOT NULL CHECK (level IN (1, 2)),
    name           TEXT NOT NULL,
    days           INTEGER NOT NULL CHECK (days > 0),
    price          BIGINT NOT NULL CHECK (price >= 0),
    original_price BIGINT NOT NULL DEFAULT 0 CHECK (original_price >= 0),
    coins          BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    label          TEXT NOT NULL DEFAULT '',
    new_user       SMALLINT NOT NULL DEFAULT 0,
    coupons        INTEGER NOT NULL DEFAULT 0 CHECK (coupons >= 0),
    sort           INTEGER NOT NULL DEFAULT 0,
    active         SMALLINT NOT NULL DEFAULT 1,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

-- The ledger (docs/architecture.md, *Wallet ledger*). Every movement is a
-- ledger_txns row with entries that sum to zero per currency. User
-- accounts cache their balance (never below zero, checked by a conditional
-- update); system accounts (user_id 0) keep no cached balance, so the hot
-- revenue account is never a locked row: its balance is the sum of its
-- entries.
CREATE TABLE ledger_accounts (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL DEFAULT 0,
    kind       TEXT NOT NULL,
    currency   TEXT NOT NULL CHECK (currency IN ('coin', 'cent')),
    balance    BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (user_id, kind)
);

CREATE TABLE ledger_txns (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,
    idem_key    TEXT NOT NULL UNIQUE,
    user_id     BIGINT NOT NULL DEFAULT 0,
    ref         TEXT NOT NULL DEFAULT '',
    memo        TEXT NOT NULL DEFAULT '',
    operator_id BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);
CREATE INDEX ledger_txns_ref ON ledger_txns(ref);

CREATE TABLE ledger_entries (
    id            INTEGER PRIMARY KEY,
    txn_id        BIGINT NOT NULL REFERENCES ledger_txns(id),
    account_id    BIGINT NOT NULL REFERENCES ledger_accounts(id),
    amount        BIGINT NOT NULL CHECK (amount <> 0),
    balance_after BIGINT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries(account_id, id);
CREATE INDEX ledger_entries_txn ON ledger_entries(txn_id);

-- Idempotency keys of money-moving requests: (user, scope, key) is used
-- once; the first result is kept and a retry gets it back. request_hash
-- tells a retry from a different request reusing the key (409).
CREATE TABLE idempotency_keys (
    user_id      BIGINT NOT NULL,
    scope        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response     TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, scope, idem_key)
);
