-- Apple's side of the loop: what the App Store Server API jobs remember between runs.

-- When each purchase was last reconciled with the App Store Server API (the server's clock):
-- the background job refreshes a subscription whose expiry passed without a newer record once,
-- not on every pass. Keyed by the purchase, like purchase_owners: it is global.
CREATE TABLE purchase_reconciliations (
    original_transaction_id text        PRIMARY KEY CHECK (length(original_transaction_id) BETWEEN 1 AND 64),
    reconciled_at           timestamptz NOT NULL
);

-- How far back notification recovery has looked, per environment: every notification Apple
-- listed as undelivered and signed before recovered_through has been processed.
CREATE TABLE notification_recoveries (
    environment       text        PRIMARY KEY CHECK (environment IN ('production', 'sandbox', 'xcode', 'localTesting')),
    recovered_through timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- Background jobs that must run on one server at a time take a lease: a row naming the holder
-- until expires_at (the database's clock, so servers' clocks need not agree). A holder renews
-- it while it works and deletes it when it stops; a lease left by a server that died expires.
CREATE TABLE job_leases (
    job        text        PRIMARY KEY,
    holder     uuid        NOT NULL,
    expires_at timestamptz NOT NULL
);

-- The subscriptions whose latest expiry falls in a window: what the reconciliation job scans.
CREATE INDEX transactions_subscription_expiry_idx ON transactions (expires_date)
    WHERE product_type = 'autoRenewable' AND revocation_date IS NULL;
