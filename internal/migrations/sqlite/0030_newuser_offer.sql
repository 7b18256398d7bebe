-- New-user VIP offers (docs/architecture.md, *VIP tiers*): each account and
-- each device gets one. A row is a claim on the offer, taken in the
-- transaction that sells it: a coin purchase ("vipbuy:<uid>:<key>"), or an
-- order made for it ("order:<no>"), which gives the claim back when it
-- expires or is cancelled unpaid. The two unique indexes decide between
-- purchases that race: one account's taps, or two accounts (a guest and the
-- guest made after it registered) on one device. dev_id is the device of
-- the session that bought (NULL: the session had none).
CREATE TABLE newuser_offer_claims (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    dev_id     TEXT,
    product_id BIGINT NOT NULL,
    source     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX newuser_offer_claims_user ON newuser_offer_claims(user_id);
CREATE UNIQUE INDEX newuser_offer_claims_dev ON newuser_offer_claims(dev_id);
CREATE INDEX newuser_offer_claims_source ON newuser_offer_claims(source);
