-- Payout accounts (docs/architecture.md, *Withdrawals*): a user's bank
-- cards (act_type 1) and USDT addresses (act_type 2). number holds the
-- full card number or address (answers mask it); network is TRC20 or
-- ERC20 for USDT. Deleting one sets deleted_at: withdrawals keep a copy
-- of the account they paid to anyway.
CREATE TABLE payout_accounts (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    act_type   SMALLINT NOT NULL CHECK (act_type IN (1, 2)),
    bank_name  TEXT NOT NULL DEFAULT '',
    holder     TEXT NOT NULL DEFAULT '',
    number     TEXT NOT NULL,
    network    TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    deleted_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX payout_accounts_user ON payout_accounts(user_id, act_type, deleted_at);

-- Withdrawals: the amount is held in the ledger (sys:cent:withdraw_held)
-- while pending, then paid out or returned by an operator. The account
-- columns are a copy of the payout account as it was. day is the
-- Asia/Shanghai date (YYYY-MM-DD) the daily limits count by.
CREATE TABLE withdrawals (
    id          INTEGER PRIMARY KEY,
    order_no    TEXT NOT NULL UNIQUE,
    user_id     BIGINT NOT NULL,
    amount      BIGINT NOT NULL CHECK (amount > 0),
    fee         BIGINT NOT NULL CHECK (fee >= 0 AND fee <= amount),
    account_id  BIGINT NOT NULL,
    act_type    SMALLINT NOT NULL,
    bank_name   TEXT NOT NULL DEFAULT '',
    holder      TEXT NOT NULL DEFAULT '',
    number      TEXT NOT NULL,
    network     TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'rejected')),
    reason      TEXT NOT NULL DEFAULT '',
    operator_id BIGINT NOT NULL DEFAULT 0,
    day         TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    decided_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX withdrawals_user ON withdrawals(user_id, id);
CREATE INDEX withdrawals_user_day ON withdrawals(user_id, day);
CREATE INDEX withdrawals_status ON withdrawals(status, id);
CREATE INDEX withdrawals_account ON withdrawals(account_id, status);

-- Notices: messages to one user (a withdrawal decided, ...), written in
-- the transaction of what they tell; issue 8's message centre lists them.
-- kind says what they are about ("withdraw"), ref the record (an order
-- number); read_at is 0 until the user reads it.
CREATE TABLE notices (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL DEFAULT '',
    ref        TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    read_at    BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX notices_user ON notices(user_id, id);
