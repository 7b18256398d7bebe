-- The daily reconciliation (GET /api/admin/reconciliation) sums each
-- book's rows of a range of days against the ledger's system accounts:
-- every sum is an index range, however long the history.
CREATE INDEX orders_paid_at ON orders(paid_at);
CREATE INDEX orders_status_closed ON orders(status, closed_at);
CREATE INDEX withdrawals_status_decided ON withdrawals(status, decided_at);
CREATE INDEX ledger_entries_account_time ON ledger_entries(account_id, created_at);
CREATE INDEX commissions_created ON commissions(created_at);
CREATE INDEX creator_earnings_created ON creator_earnings(created_at);
