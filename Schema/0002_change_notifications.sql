-- Change notifications, so every server instance can cache without serving stale data.
--
-- Each trigger NOTIFYs inside the writing transaction; PostgreSQL delivers the notification
-- only when that transaction commits, and never when it rolls back (a dry run stays silent).

-- 'account_id:version' whenever an account's version bumps: cached snapshots of older
-- versions are stale.
CREATE FUNCTION storesync_notify_account_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('storesync_accounts', NEW.account_id::text || ':' || NEW.version::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER account_versions_notify AFTER UPDATE OF version ON account_versions
    FOR EACH ROW EXECUTE FUNCTION storesync_notify_account_version();

-- The hex SHA-256 of a token that stopped working (signed out, replaced, account deleted):
-- cached sessions of it must go.
CREATE FUNCTION storesync_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('storesync_sessions', encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END;
$$;
CREATE TRIGGER sessions_notify AFTER DELETE OR UPDATE OF token_hash ON sessions
    FOR EACH ROW EXECUTE FUNCTION storesync_notify_session();

-- Any change to the catalog: every instance reloads it.
CREATE FUNCTION storesync_notify_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('storesync_catalog', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER products_notify AFTER INSERT OR UPDATE OR DELETE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION storesync_notify_catalog();
