-- The operator's switch of each payment provider (issue 21, finance):
-- one row per payType the operator has switched at least once; a provider
-- without a row is on. A switched-off provider is not offered to the
-- phone app and refuses new orders; its existing orders still settle by
-- their callbacks (the notify path does not read this table).
CREATE TABLE provider_switches (
    name       TEXT PRIMARY KEY,
    enabled    SMALLINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    updated_by BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- A provider's health (the console's 支付渠道 page): its last notice and
-- the notices and failures of the last 24 hours walk this index.
CREATE INDEX payment_callbacks_provider_time ON payment_callbacks(provider, created_at);
