-- Earnings (docs/architecture.md, *Earnings*): promoter commission on paid
-- orders, creator earnings on coin purchases, promoter applications, share
-- link visits. Every cent these rows speak of is also a ledger movement
-- (wallet's ledger_txns); the rows say which movement belongs to what, and
-- earnings.Check holds them equal to their ledger accounts.

-- The operator's settings: one row. levels and promoter_levels are JSON
-- arrays of basis points per level (level 1 first, 1..3 entries, the same
-- length); invite_reward is when an inviter's sign-up coins are paid:
-- 'off', 'phone' (the invitee bound a phone) or 'payment' (first paid order).
CREATE TABLE commission_config (
    id                SMALLINT PRIMARY KEY,
    levels            TEXT NOT NULL,
    promoter_levels   TEXT NOT NULL,
    settle_days       INTEGER NOT NULL,
    creator_share_bps INTEGER NOT NULL,
    invite_reward     TEXT NOT NULL DEFAULT 'off',
    updated_at        BIGINT NOT NULL DEFAULT 0
);
INSERT INTO commission_config (id, levels, promoter_levels, settle_days, creator_share_bps, invite_reward, updated_at)
VALUES (1, '[1000,300,100]', '[2000,500,200]', 7, 5000, 'off', 0);

-- Promoter applications (usershareshenqing). One live application per
-- user (pending or approved), enforced by the partial unique index; after
-- a rejection the user may apply again, so rejected rows stay as history.
CREATE TABLE promoter_applications (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    channel     TEXT NOT NULL,
    contact     TEXT NOT NULL,
    intro       TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reason      TEXT NOT NULL DEFAULT '',
    operator_id BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    decided_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX promoter_applications_user ON promoter_applications(user_id, id);
CREATE INDEX promoter_applications_status ON promoter_applications(status, id);
CREATE UNIQUE INDEX promoter_applications_live ON promoter_applications(user_id) WHERE status <> 'rejected';

-- Commission: one row per (order, level), whatever races the payment's
-- notifies run. user_id earns it, payer_id paid the order. state pending ->
-- settled (moved into the earner's income) or reversed (the order was
-- refunded); debt is what a reversal after settlement left owed (0 when it
-- reversed a pending row).
CREATE TABLE commissions (
    id          INTEGER PRIMARY KEY,
    order_no    TEXT NOT NULL,
    level       SMALLINT NOT NULL CHECK (level BETWEEN 1 AND 3),
    user_id     BIGINT NOT NULL,
    payer_id    BIGINT NOT NULL,
    order_cents BIGINT NOT NULL CHECK (order_cents > 0),
    rate_bps    INTEGER NOT NULL CHECK (rate_bps > 0),
    amount      BIGINT NOT NULL CHECK (amount > 0),
    state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'settled', 'reversed')),
    debt        BIGINT NOT NULL DEFAULT 0 CHECK (debt >= 0),
    settle_at   BIGINT NOT NULL,
    settled_at  BIGINT NOT NULL DEFAULT 0,
    reversed_at BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    UNIQUE (order_no, level)
);
CREATE INDEX commissions_user ON commissions(user_id, id);
CREATE INDEX commissions_user_state ON commissions(user_id, state, id);
CREATE INDEX commissions_user_created ON commissions(user_id, created_at);
CREATE INDEX commissions_payer ON commissions(user_id, payer_id);
CREATE INDEX commissions_due ON commissions(settle_at, id) WHERE state = 'pending';

-- Creator earnings: one row per coin purchase of a creator's item (a
-- purchase is unique per buyer and item, and so is its earning).
CREATE TABLE creator_earnings (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    buyer_id    BIGINT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('video', 'post', 'gallery')),
    item_id     BIGINT NOT NULL,
    title       TEXT NOT NULL DEFAULT '',
    coins       BIGINT NOT NULL CHECK (coins > 0),
    share_bps   INTEGER NOT NULL CHECK (share_bps > 0),
    amount      BIGINT NOT NULL CHECK (amount > 0),
    state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'settled', 'reversed')),
    debt        BIGINT NOT NULL DEFAULT 0 CHECK (debt >= 0),
    settle_at   BIGINT NOT NULL,
    settled_at  BIGINT NOT NULL DEFAULT 0,
    reversed_at BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    UNIQUE (kind, item_id, buyer_id)
);
CREATE INDEX creator_earnings_user ON creator_earnings(user_id, id);
CREATE INDEX creator_earnings_due ON creator_earnings(settle_at, id) WHERE state = 'pending';

-- What a user owes back: commission reversed after it was settled. Later
-- commission pays it off before any of it reaches income.
CREATE TABLE earning_debts (
    user_id    BIGINT PRIMARY KEY,
    cents      BIGINT NOT NULL CHECK (cents >= 0),
    updated_at BIGINT NOT NULL
);

-- Paid orders of invited users, as the payment told earnings (for the
-- promotion data: payers and paid amounts per day); refunded_at when the
-- order was refunded since.
CREATE TABLE invitee_orders (
    order_no    TEXT PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    inviter_id  BIGINT NOT NULL,
    amount      BIGINT NOT NULL,
    paid_at     BIGINT NOT NULL,
    refunded_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX invitee_orders_inviter ON invitee_orders(inviter_id, paid_at);
CREATE INDEX invitee_orders_user ON invitee_orders(user_id);
INSERT INTO invitee_orders (order_no, user_id, inviter_id, amount, paid_at, refunded_at)
SELECT o.order_no, o.user_id, b.inviter_id, o.amount, o.paid_at, 0
FROM orders o JOIN invite_bindings b ON b.invitee_id = o.user_id
WHERE o.status = 'paid' AND o.paid_at > 0;

-- Share link visits: once per inviter, Asia/Shanghai day and device.
CREATE TABLE share_visits (
    inviter_id BIGINT NOT NULL,
    day        TEXT NOT NULL,
    dev_id     TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (inviter_id, day, dev_id)
);
