-- Real payment providers (docs/architecture.md, *Payments and providers*).
-- pay_ref is the provider's own reference of an order's payment, kept when
-- the pay URL is stored (a Stripe Checkout Session id; an EasyPay API
-- order's trade number): what the expiry job asks the provider about and
-- closes. A refund notice names the payment by the provider's trade
-- number only (Stripe's charge.refunded), so orders are found by it.
ALTER TABLE orders ADD COLUMN pay_ref TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_trade ON orders(trade_no) WHERE trade_no <> '';
