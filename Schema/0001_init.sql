-- StoreSync schema, version 1.
--
-- Every account-scoped table leads its primary key with account_id so the schema can be
-- distributed by account_id (Citus). purchase_owners and unclaimed_versions are keyed by
-- Apple's original_transaction_id: a purchase is global until an account holds it.
-- Idempotency lives in constraints: a transaction version is stored once per account, a
-- notification UUID is processed once.

CREATE TABLE accounts (
    account_id        uuid        PRIMARY KEY,
    email             text        NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
    -- trimmed and lower-cased by the server; unique, so emails are unique case-insensitively
    email_normalized  text        NOT NULL CHECK (email_normalized = lower(email_normalized)),
    password_hash     text        NOT NULL,
    -- the UUID the app passes to StoreKit 2 purchases; stable for the account's life
    app_account_token uuid        NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT accounts_email_normalized_key UNIQUE (email_normalized),
    CONSTRAINT accounts_app_account_token_key UNIQUE (app_account_token)
);

-- The account version: bumped in the same database transaction as every change to the
-- account's purchases; the ETag of its entitlement snapshot. Its row is also the lock that
-- serialises writers of one account.
CREATE TABLE account_versions (
    account_id uuid        PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE,
    version    bigint      NOT NULL DEFAULT 1 CHECK (version >= 1),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- One session per device. Tokens are random 256-bit values; only their SHA-256 is stored.
CREATE TABLE sessions (
    account_id   uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    device_id    uuid        NOT NULL,
    token_hash   bytea       NOT NULL CHECK (length(token_hash) = 32),
    device_name  text        CHECK (length(device_name) <= 200),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, device_id),
    CONSTRAINT sessions_token_hash_key UNIQUE (token_hash)
);

-- The catalog: what each product is and which entitlements it grants.
CREATE TABLE products (
    product_id            text        PRIMARY KEY CHECK (length(product_id) BETWEEN 1 AND 255),
    type                  text        NOT NULL
                          CHECK (type IN ('consumable', 'nonConsumable', 'autoRenewable', 'nonRenewing')),
    entitlements          text[]      NOT NULL DEFAULT '{}',
    duration_seconds      bigint      CHECK (duration_seconds > 0),
    subscription_group_id text,
    grace_period_seconds  bigint      CHECK (grace_period_seconds >= 0),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    -- Apple states no end for non-renewing subscriptions; the catalog must.
    CONSTRAINT products_non_renewing_has_duration
        CHECK (type <> 'nonRenewing' OR duration_seconds IS NOT NULL)
);

-- Every version of every transaction an account holds, as verified. The account's ledger is
-- the merge of these versions (StoreSyncCore.Ledger): the latest signed_date wins, then the
-- stronger evidence. A version is stored once per account: re-delivery conflicts and
-- changes nothing.
CREATE TABLE transactions (
    account_id              uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    transaction_id          text        NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 64),
    signed_date             timestamptz NOT NULL,
    evidence                text        NOT NULL CHECK (evidence IN ('jws', 'receipt', 'unverifiedJWS', 'claim')),
    original_transaction_id text        NOT NULL CHECK (length(original_transaction_id) BETWEEN 1 AND 64),
    product_id              text        NOT NULL CHECK (length(product_id) BETWEEN 1 AND 255),
    product_type            text        NOT NULL
                            CHECK (product_type IN ('consumable', 'nonConsumable', 'autoRenewable', 'nonRenewing')),
    purchase_date           timestamptz NOT NULL,
    original_purchase_date  timestamptz NOT NULL,
    expires_date            timestamptz,
    revocation_date         timestamptz,
    revocation_reason       integer,
    is_upgraded             boolean     NOT NULL DEFAULT false,
    ownership_type          text        NOT NULL CHECK (ownership_type IN ('purchased', 'familyShared')),
    environment             text        NOT NULL CHECK (environment IN ('production', 'sandbox', 'xcode', 'localTesting')),
    app_account_token       uuid,
    quantity                integer     NOT NULL DEFAULT 1 CHECK (quantity >= 0),
    subscription_group_id   text,
    verified_at             timestamptz,
    signed_transaction      text,
    received_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, transaction_id, signed_date, evidence),
    CONSTRAINT transactions_receipt_has_verified_at CHECK (evidence <> 'receipt' OR verified_at IS NOT NULL)
);
CREATE INDEX transactions_account_chain_idx ON transactions (account_id, original_transaction_id);
-- Notifications and the purchase history look a purchase up across accounts.
CREATE INDEX transactions_original_transaction_idx ON transactions (original_transaction_id);

-- The latest signed renewal info of each subscription chain an account holds (last writer
-- wins on signed_date, as in the ledger).
CREATE TABLE renewal_infos (
    account_id              uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    original_transaction_id text        NOT NULL,
    signed_date             timestamptz NOT NULL,
    auto_renew_product_id   text,
    product_id              text,
    auto_renew_status       boolean     NOT NULL,
    is_in_billing_retry     boolean     NOT NULL DEFAULT false,
    grace_period_expires    timestamptz,
    expiration_intent       integer,
    environment             text        NOT NULL CHECK (environment IN ('production', 'sandbox', 'xcode', 'localTesting')),
    signed_renewal_info     text,
    PRIMARY KEY (account_id, original_transaction_id)
);

-- A purchase (original transaction id) belongs to one account at a time. account_id is
-- NULL while nobody holds it (a notification arrived before any device presented it).
CREATE TABLE purchase_owners (
    original_transaction_id text        PRIMARY KEY,
    account_id              uuid        REFERENCES accounts (account_id) ON DELETE SET NULL,
    environment             text        NOT NULL CHECK (environment IN ('production', 'sandbox', 'xcode', 'localTesting')),
    -- set when the owner is fixed by the transaction's appAccountToken rather than by who came first
    bound_by_token          boolean     NOT NULL DEFAULT false,
    claimed_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_owners_account_idx ON purchase_owners (account_id);

-- Signed versions that arrived (by Server Notification) for a purchase no account holds
-- yet; merged into the account that presents the purchase first, then deleted.
CREATE TABLE unclaimed_versions (
    original_transaction_id text        NOT NULL,
    kind                    text        NOT NULL CHECK (kind IN ('transaction', 'renewalInfo')),
    signed_date             timestamptz NOT NULL,
    signed_payload          text        NOT NULL,
    received_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (original_transaction_id, kind, signed_date)
);

-- App Store Server Notifications processed, once per notificationUUID. A row is written in
-- the same database transaction as the notification's effects, so a failure leaves none.
CREATE TABLE notifications (
    notification_uuid       uuid        PRIMARY KEY,
    notification_type       text        NOT NULL,
    subtype                 text,
    original_transaction_id text,
    signed_date             timestamptz NOT NULL,
    processed_at            timestamptz NOT NULL DEFAULT now()
);

-- The audit trail, append-only: purchases claimed, ownership moved or shared, revocations
-- and their reversals; the outbox for outbound webhooks later. A move writes one row for
-- each account involved, each naming both ends.
CREATE TABLE events (
    account_id              uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    event_id                bigint      GENERATED ALWAYS AS IDENTITY,
    kind                    text        NOT NULL CHECK (kind IN (
                                'purchaseClaimed', 'ownershipTransferred', 'purchaseShared',
                                'revoked', 'revocationReversed', 'renewed', 'expired')),
    original_transaction_id text        NOT NULL,
    transaction_id          text,
    from_account_id         uuid,
    to_account_id           uuid,
    reason                  text        NOT NULL,
    occurred_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, event_id)
);
CREATE INDEX events_original_transaction_idx ON events (original_transaction_id);

CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
