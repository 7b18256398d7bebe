-- Operator console, money (issue 21).
--
-- Two-person approval of large withdrawals: the owner sets an amount
-- (withdraw_settings.two_person_above, cents; 0 = off); a pending
-- withdrawal above it is paid only by a second operator's approval. The
-- first approval is recorded on the row (first_approver_id, 0 = none) by
-- a conditional update, and the paying update names the first approver it
-- read, so two approvals at once can neither pay twice nor skip the
-- second person.
ALTER TABLE withdrawals ADD COLUMN first_approver_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE withdrawals ADD COLUMN first_approved_at BIGINT NOT NULL DEFAULT 0;

CREATE TABLE withdraw_settings (
    id               SMALLINT PRIMARY KEY CHECK (id = 1),
    two_person_above BIGINT NOT NULL DEFAULT 0 CHECK (two_person_above >= 0),
    updated_by       BIGINT NOT NULL DEFAULT 0,
    updated_at       BIGINT NOT NULL DEFAULT 0
);
INSERT INTO withdraw_settings (id, two_person_above) VALUES (1, 0);

-- The console's order list filters by provider (pay_type) and by day
-- (created_at), newest first by id.
CREATE INDEX orders_pay_type ON orders(pay_type, id);
CREATE INDEX orders_created ON orders(created_at, id);
