-- The keys of the tables written in bulk are checked once per statement, not once per row.
--
-- PostgreSQL checks a foreign key row by row: every row written runs a query that finds and locks
-- the row it references. A restore writes one account's owner rows, transactions and events, a
-- thousand of each for a large one, all naming the same account, and those checks were a large
-- part of what PostgreSQL did to store them (PERFORMANCE.md). The five keys below are now kept by
-- triggers that check each statement's rows at once and keep every guarantee the key gave:
--
-- - A row written (inserted, or updated) names a row that exists, and that row is locked
--   FOR KEY SHARE until the writer's transaction ends, as the key's own check locks it: a deletion
--   of it waits for the writer, or the writer, behind a deletion that commits first, finds it gone.
--   A violation raises what the key raised: foreign_key_violation (23503), the key's name as the
--   constraint, the same message.
-- - Deleting a referenced row does what the key's ON DELETE did: an account's transactions and
--   renewal infos go with its version row (CASCADE); a version row an owner row names, and an
--   account row events name, are not deleted (RESTRICT). Events are append-only
--   (events_append_only_delete), so the deliveries' key needs nothing on that side.
-- - A referenced id never changes, and a referenced table is not truncated while rows refer to it.
--
-- A deletion of a referenced row must run at READ COMMITTED: its cascade and its RESTRICT check
-- then see the rows of every writer it waited for, which a REPEATABLE READ snapshot would not
-- (the key's own triggers see them through a fresher snapshot than SQL can ask for). The server
-- deletes accounts at READ COMMITTED; the triggers refuse any other level.
--
-- Sessions (one row per sign-in) and account_versions itself keep their foreign keys.

ALTER TABLE transactions DROP CONSTRAINT transactions_account_id_fkey;
ALTER TABLE renewal_infos DROP CONSTRAINT renewal_infos_account_id_fkey;
ALTER TABLE purchase_owners DROP CONSTRAINT purchase_owners_account_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_account_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_account_id_event_id_fkey;

-- Written rows' accounts are rows of TG_ARGV[1] (account_versions: live accounts; accounts: any,
-- for events, which outlive the accounts they name), locked FOR KEY SHARE. TG_ARGV[0]: the key's
-- name. The statement's rows are the transition table `written`.
--
-- The check counts instead of joining what it locked with what was named: PostgreSQL keeps no
-- statistics on a transition table, and a join of two sets it guesses at 200 rows each ran as
-- a nested loop, quadratic in a statement that names many accounts (the bench's seed). Each
-- table's lock is a static query, planned once per session, not EXECUTE'd at every statement.
CREATE FUNCTION storesync_require_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named bigint;
    locked bigint;
    missing uuid;
BEGIN
    -- A row deleted by a transaction that commits while this one waits for it is not locked.
    IF TG_ARGV[1] = 'account_versions' THEN
        SELECT count(*) INTO locked FROM (
            SELECT FROM account_versions WHERE account_id IN (SELECT account_id FROM written)
            ORDER BY account_id FOR KEY SHARE
        ) AS rows_locked;
    ELSIF TG_ARGV[1] = 'accounts' THEN
        SELECT count(*) INTO locked FROM (
            SELECT FROM accounts WHERE account_id IN (SELECT account_id FROM written)
            ORDER BY account_id FOR KEY SHARE
        ) AS rows_locked;
    ELSE
        RAISE EXCEPTION 'storesync_require_accounts checks account_versions or accounts, not %', TG_ARGV[1];
    END IF;
    SELECT count(DISTINCT account_id) INTO named FROM written;
    IF locked < named THEN
        EXECUTE format(
            'SELECT account_id FROM written WHERE account_id IS NOT NULL'
            ' AND NOT EXISTS (SELECT FROM %I AS referenced WHERE referenced.account_id = written.account_id) LIMIT 1',
            TG_ARGV[1]) INTO missing;
        RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', TG_TABLE_NAME, TG_ARGV[0]
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = TG_ARGV[0], TABLE = TG_TABLE_NAME,
                SCHEMA = TG_TABLE_SCHEMA,
                DETAIL = format('Key (account_id)=(%s) is not present in table "%s".', missing, TG_ARGV[1]);
    END IF;
    RETURN NULL;
END;
$$;

-- Written deliveries' events exist. Events are never updated or deleted, so none is locked: an
-- event that exists stays. TG_ARGV[0]: the key's name; TG_ARGV[1] names the referenced table
-- (events), as every key's trigger does, and this function checks only that one.
CREATE FUNCTION storesync_require_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing record;
BEGIN
    SELECT written.account_id, written.event_id INTO missing
    FROM written
    WHERE NOT EXISTS (
        SELECT FROM events WHERE events.account_id = written.account_id AND events.event_id = written.event_id)
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', TG_TABLE_NAME, TG_ARGV[0]
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = TG_ARGV[0], TABLE = TG_TABLE_NAME,
                SCHEMA = TG_TABLE_SCHEMA,
                DETAIL = format('Key (account_id, event_id)=(%s, %s) is not present in table "events".',
                    missing.account_id, missing.event_id);
    END IF;
    RETURN NULL;
END;
$$;

-- Transition tables allow one event per trigger, so each table has an insert and an update trigger.
DO $$
DECLARE
    key record;
    event text;
BEGIN
    FOR key IN
        SELECT * FROM (VALUES
            ('transactions', 'transactions_account_id_fkey', 'storesync_require_accounts', 'account_versions'),
            ('renewal_infos', 'renewal_infos_account_id_fkey', 'storesync_require_accounts', 'account_versions'),
            ('purchase_owners', 'purchase_owners_account_id_fkey', 'storesync_require_accounts', 'account_versions'),
            ('events', 'events_account_id_fkey', 'storesync_require_accounts', 'accounts'),
            ('webhook_deliveries', 'webhook_deliveries_account_id_event_id_fkey', 'storesync_require_events', 'events')
        ) AS keys (table_name, key_name, check_function, referenced)
    LOOP
        FOREACH event IN ARRAY ARRAY['insert', 'update'] LOOP
            EXECUTE format(
                'CREATE TRIGGER %I AFTER %s ON %I REFERENCING NEW TABLE AS written'
                ' FOR EACH STATEMENT EXECUTE FUNCTION %I(%L, %L)',
                key.key_name || '_' || event, upper(event), key.table_name, key.check_function, key.key_name,
                key.referenced);
        END LOOP;
    END LOOP;
END;
$$;

CREATE FUNCTION storesync_refuse_stale_snapshot_deletion() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'rows other tables refer to are deleted at READ COMMITTED, not %',
            upper(current_setting('transaction_isolation'))
            USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = 'The cascade and the RESTRICT check must see the rows of every writer the deletion waited for.';
    END IF;
END;
$$;

-- Raises what a foreign key raises when the row it refers to is deleted (RESTRICT).
CREATE FUNCTION storesync_raise_still_referenced(referenced text, referring text, key_name text, account_id uuid)
    RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "%" on table "%"',
        referenced, key_name, referring
        USING ERRCODE = 'foreign_key_violation', CONSTRAINT = key_name, TABLE = referring, SCHEMA = current_schema(),
            DETAIL = format('Key (account_id)=(%s) is still referenced from table "%s".', account_id, referring);
END;
$$;

-- An account's version row deleted: its transactions and renewal infos go with it; an owner row
-- that still names it keeps it.
CREATE FUNCTION storesync_account_version_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM storesync_refuse_stale_snapshot_deletion();
    IF EXISTS (SELECT FROM purchase_owners WHERE account_id = OLD.account_id) THEN
        PERFORM storesync_raise_still_referenced(TG_TABLE_NAME, 'purchase_owners', 'purchase_owners_account_id_fkey',
            OLD.account_id);
    END IF;
    DELETE FROM transactions WHERE account_id = OLD.account_id;
    DELETE FROM renewal_infos WHERE account_id = OLD.account_id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER account_versions_keys_deleted AFTER DELETE ON account_versions
    FOR EACH ROW EXECUTE FUNCTION storesync_account_version_deleted();

-- An account row is never deleted while events name it.
CREATE FUNCTION storesync_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM storesync_refuse_stale_snapshot_deletion();
    IF EXISTS (SELECT FROM events WHERE account_id = OLD.account_id) THEN
        PERFORM storesync_raise_still_referenced(TG_TABLE_NAME, 'events', 'events_account_id_fkey', OLD.account_id);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER accounts_keys_deleted AFTER DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION storesync_account_deleted();

-- Account ids are referenced everywhere, by rows and by devices' tokens; none ever changes.
CREATE FUNCTION storesync_account_ids_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'an account''s id never changes (table "%")', TG_TABLE_NAME
        USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, SCHEMA = TG_TABLE_SCHEMA;
END;
$$;
CREATE TRIGGER accounts_id_immutable BEFORE UPDATE OF account_id ON accounts
    FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id)
    EXECUTE FUNCTION storesync_account_ids_are_immutable();
CREATE TRIGGER account_versions_id_immutable BEFORE UPDATE OF account_id ON account_versions
    FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id)
    EXECUTE FUNCTION storesync_account_ids_are_immutable();

-- TRUNCATE deletes without row triggers: a referenced table is truncated only once the tables
-- that refer to it (TG_ARGV) are empty.
CREATE FUNCTION storesync_refuse_truncating_referenced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    referring text;
    holds boolean;
BEGIN
    FOREACH referring IN ARRAY TG_ARGV LOOP
        EXECUTE format('SELECT EXISTS (SELECT FROM %I)', referring) INTO holds;
        IF holds THEN
            RAISE EXCEPTION 'cannot truncate table "%": table "%" refers to it', TG_TABLE_NAME, referring
                USING ERRCODE = 'feature_not_supported', HINT = format('Truncate table "%s" first.', referring);
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;
CREATE TRIGGER account_versions_not_truncated_while_referenced BEFORE TRUNCATE ON account_versions
    FOR EACH STATEMENT EXECUTE FUNCTION storesync_refuse_truncating_referenced(
        'transactions', 'renewal_infos', 'purchase_owners');
CREATE TRIGGER accounts_not_truncated_while_referenced BEFORE TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION storesync_refuse_truncating_referenced('events');
CREATE TRIGGER events_not_truncated_while_referenced BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION storesync_refuse_truncating_referenced('webhook_deliveries');
