-- Purchases of gold videos and galleries (docs/architecture.md, *Gold
-- purchases and coupons*). One row per (user, item), unique, so a second
-- buy of the same item cannot happen however requests race. price is what
-- was paid (coins; 0 with a coupon) and never follows the item's later
-- price. Rows are never deleted: no call removes them.
CREATE TABLE video_purchases (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    video_id   BIGINT NOT NULL,
    price      BIGINT NOT NULL CHECK (price >= 0),
    paid_with  TEXT NOT NULL CHECK (paid_with IN ('coins', 'coupon')),
    coupon_id  BIGINT NOT NULL DEFAULT 0,
    txn_id     BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (user_id, video_id)
);
CREATE INDEX video_purchases_user ON video_purchases(user_id, created_at DESC, id DESC);

CREATE TABLE gallery_purchases (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    gallery_id BIGINT NOT NULL,
    price      BIGINT NOT NULL CHECK (price >= 0),
    paid_with  TEXT NOT NULL CHECK (paid_with IN ('coins', 'coupon')),
    coupon_id  BIGINT NOT NULL DEFAULT 0,
    txn_id     BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (user_id, gallery_id)
);
CREATE INDEX gallery_purchases_user ON gallery_purchases(user_id, created_at DESC, id DESC);

-- Coupon kinds (the backpack groups by kind). Kind 1 is the gold-video
-- coupon VIP cards include and operators grant: it buys one gold video.
-- days is how long a coupon of the kind lasts when granted with a card.
CREATE TABLE coupon_kinds (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    days       INTEGER NOT NULL CHECK (days > 0),
    created_at BIGINT NOT NULL
);
INSERT INTO coupon_kinds (id, name, days, created_at) VALUES (1, '金币视频券', 30, 0);

-- A user's coupons. The state is read, not stored: used when used_at > 0,
-- else expired when expires_at <= now, else unused. Using one is a
-- conditional update (used_at = 0 and not expired), so a coupon pays once.
-- source says where it came from ("vip:<productID>", "admin:<operator>").
CREATE TABLE user_coupons (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    kind_id    BIGINT NOT NULL REFERENCES coupon_kinds(id),
    source     TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL,
    used_at    BIGINT NOT NULL DEFAULT 0,
    used_for   TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX user_coupons_user ON user_coupons(user_id, used_at, expires_at);
