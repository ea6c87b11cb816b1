-- Account deletion (App Store guideline 5.1.1(v)), accounts bound to the app backend's own user
-- ids, and an audit trail that outlives the accounts it names.

-- A deleted account keeps its row as a tombstone: its id stays taken (no later account can be
-- mistaken for it) and the events that name it stay valid, while everything that identifies a
-- person is erased. The erasure is a constraint, not a promise the code keeps.
--
-- An account signs in with an email and a password, or is bound to the app backend's user id
-- (external_user_id) and has no password: its backend mints its sessions.
ALTER TABLE accounts
    ALTER COLUMN email DROP NOT NULL,
    ALTER COLUMN email_normalized DROP NOT NULL,
    ALTER COLUMN password_hash DROP NOT NULL,
    ALTER COLUMN app_account_token DROP NOT NULL,
    -- 1 to 255 characters (code points, as length() counts); the server refuses control characters
    ADD COLUMN external_user_id text CHECK (length(external_user_id) BETWEEN 1 AND 255),
    ADD COLUMN deleted_at timestamptz,
    ADD CONSTRAINT accounts_external_user_id_key UNIQUE (external_user_id),
    ADD CONSTRAINT accounts_email_has_password
        CHECK ((email IS NULL) = (email_normalized IS NULL) AND (email IS NULL) = (password_hash IS NULL)),
    ADD CONSTRAINT accounts_live_has_identity
        CHECK (deleted_at IS NOT NULL
               OR (app_account_token IS NOT NULL AND (email IS NOT NULL OR external_user_id IS NOT NULL))),
    ADD CONSTRAINT accounts_deleted_is_erased
        CHECK (deleted_at IS NULL
               OR (email IS NULL AND password_hash IS NULL AND app_account_token IS NULL AND external_user_id IS NULL));

-- A deleted account's version row goes with it, and every row that belongs to a live account
-- references that row, so none can be written for an account once it is deleted: a sign-in,
-- restore or notification that races the deletion waits for it (the deletion locks the version
-- row first, FOR UPDATE) and then fails on the key instead of leaving an orphan row. Sessions,
-- versions and renewal infos go with it; a purchase must have been released first (RESTRICT).
ALTER TABLE sessions
    DROP CONSTRAINT sessions_account_id_fkey,
    ADD CONSTRAINT sessions_account_id_fkey
        FOREIGN KEY (account_id) REFERENCES account_versions (account_id) ON DELETE CASCADE;
ALTER TABLE transactions
    DROP CONSTRAINT transactions_account_id_fkey,
    ADD CONSTRAINT transactions_account_id_fkey
        FOREIGN KEY (account_id) REFERENCES account_versions (account_id) ON DELETE CASCADE;
ALTER TABLE renewal_infos
    DROP CONSTRAINT renewal_infos_account_id_fkey,
    ADD CONSTRAINT renewal_infos_account_id_fkey
        FOREIGN KEY (account_id) REFERENCES account_versions (account_id) ON DELETE CASCADE;
ALTER TABLE purchase_owners
    DROP CONSTRAINT purchase_owners_account_id_fkey,
    ADD CONSTRAINT purchase_owners_account_id_fkey
        FOREIGN KEY (account_id) REFERENCES account_versions (account_id) ON DELETE RESTRICT;

-- The audit trail outlives the accounts it names: an account row is never deleted (deletion
-- erases it in place), and this key makes sure no statement deletes one behind the trail's back.
ALTER TABLE events
    DROP CONSTRAINT events_account_id_fkey,
    ADD CONSTRAINT events_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (account_id) ON DELETE RESTRICT;

-- Two new kinds: a deleted account's purchase released (from the deleted account to the account
-- that still holds a shared copy, or to nobody), and the account's deletion itself, which is not
-- about one purchase.
ALTER TABLE events
    ALTER COLUMN original_transaction_id DROP NOT NULL,
    DROP CONSTRAINT events_kind_check,
    ADD CONSTRAINT events_kind_check CHECK (kind IN (
        'purchaseClaimed', 'ownershipTransferred', 'purchaseShared',
        'revoked', 'revocationReversed', 'renewed', 'expired',
        'purchaseReleased', 'accountDeleted')),
    ADD CONSTRAINT events_name_their_purchase
        CHECK (kind = 'accountDeleted' OR original_transaction_id IS NOT NULL);

-- Append-only means no deletes either.
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();

-- When a deleted account's version row goes, every instance must drop its cached snapshot: the
-- notification names a version past the last one, so every cached snapshot is older.
CREATE FUNCTION storesync_notify_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('storesync_accounts', OLD.account_id::text || ':' || (OLD.version + 1)::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER account_versions_notify_delete AFTER DELETE ON account_versions
    FOR EACH ROW EXECUTE FUNCTION storesync_notify_account_deleted();

