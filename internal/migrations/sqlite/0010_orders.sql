-- Coin packages (GET /api/app/mine/currencys): coins plus bonus coins for
-- price cents. type 1 is the only type today.
CREATE TABLE coin_packages (
    id             INTEGER PRIMARY KEY,
    type           SMALLINT NOT NULL DEFAULT 1 CHECK (type = 1),
    name           TEXT NOT NULL,
    coins          BIGINT NOT NULL CHECK (coins > 0),
    bonus          BIGINT NOT NULL DEFAULT 0 CHECK (bonus >= 0),
    price          BIGINT NOT NULL CHECK (price > 0),
    original_price BIGINT NOT NULL DEFAULT 0 CHECK (original_price >= 0),
    label          TEXT NOT NULL DEFAULT '',
    sort           INTEGER NOT NULL DEFAULT 0,
    active         SMALLINT NOT NULL DEFAULT 1,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

-- Top-up orders (docs/architecture.md, *Payments and providers*). An
-- order keeps what it sells as it was when it was made (title, amount,
-- coins and bonus, or the VIP card's tier and days), so a later change of
-- the package or card changes neither what the payer is credited nor what
-- a refund takes back. status only moves forward, each step a conditional
-- update: pending -> paid | cancelled | expired; paid -> refunded; an
-- operator may mark a cancelled or expired order paid (a missed payment).
CREATE TABLE orders (
    id           INTEGER PRIMARY KEY,
    order_no     TEXT NOT NULL UNIQUE,
    user_id      BIGINT NOT NULL,
    product_type TEXT NOT NULL CHECK (product_type IN ('coins', 'vip')),
    product_id   BIGINT NOT NULL,
    title        TEXT NOT NULL,
    amount       BIGINT NOT NULL CHECK (amount > 0),
    currency     TEXT NOT NULL DEFAULT 'CNY',
    coins        BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    bonus        BIGINT NOT NULL DEFAULT 0 CHECK (bonus >= 0),
    vip_level    SMALLINT NOT NULL DEFAULT 0,
    vip_days     INTEGER NOT NULL DEFAULT 0,
    vip_coupons  INTEGER NOT NULL DEFAULT 0,
    pay_type     TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled', 'expired', 'refunded')),
    trade_no     TEXT NOT NULL DEFAULT '',
    pay_url      TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    paid_at      BIGINT NOT NULL DEFAULT 0,
    closed_at    BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX orders_user ON orders(user_id, id);
CREATE INDEX orders_status ON orders(status, id);

-- Every provider callback and what came of it, for operators: a payment
-- for an expired order, a forged signature, a wrong amount. Nothing reads
-- it to move money.
CREATE TABLE payment_callbacks (
    id         INTEGER PRIMARY KEY,
    provider   TEXT NOT NULL,
    order_no   TEXT NOT NULL DEFAULT '',
    outcome    TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX payment_callbacks_order ON payment_callbacks(order_no, id);
