-- Outbound webhooks: one delivery per event, written in the same database transaction as the
-- event (EventRepository.append), so none is lost and none exists for a change that rolled
-- back. Written only by servers that have STORESYNC_WEBHOOK_URL.
--
-- A delivery is 'pending' until the receiver answers 2xx ('delivered') or 72 hours of retries
-- pass ('failed'). Servers claim pending deliveries with FOR UPDATE SKIP LOCKED and push
-- next_attempt_at past the attempt while it runs, so any number of servers send each delivery
-- once; an account's deliveries go in event order, the next one only after the previous one
-- was delivered or failed. Times the server schedules (next_attempt_at, last_attempt_at,
-- delivered_at) are its clock's; pending_since starts the 72 hours.
CREATE TABLE webhook_deliveries (
    account_id      uuid        NOT NULL,
    event_id        bigint      NOT NULL,
    state           text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    pending_since   timestamptz NOT NULL DEFAULT now(),
    -- due at once when queued: '-infinity' is before any clock's now
    next_attempt_at timestamptz NOT NULL DEFAULT '-infinity',
    last_attempt_at timestamptz,
    -- the receiver's HTTP status of the last attempt that ended; NULL when it did not answer or
    -- an attempt is under way
    last_status     integer,
    -- why the last attempt that ended failed, for operators (bounded)
    last_error      text        CHECK (length(last_error) <= 500),
    delivered_at    timestamptz,
    PRIMARY KEY (account_id, event_id),
    FOREIGN KEY (account_id, event_id) REFERENCES events (account_id, event_id),
    CONSTRAINT webhook_deliveries_delivered_has_time CHECK ((state = 'delivered') = (delivered_at IS NOT NULL))
);
-- The head of each account's queue, and what is due: small, since delivered rows leave them.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (account_id, event_id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_waiting_idx ON webhook_deliveries (pending_since) WHERE state = 'pending';
-- The admin listing by state, and a delivery by its id (the event's).
CREATE INDEX webhook_deliveries_state_idx ON webhook_deliveries (state, event_id);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

-- A delivery queued (or set pending again by an operator's retry) wakes the servers' delivery
-- loops: sent at commit, never for a rollback, and once per transaction however many rows it
-- touched (PostgreSQL folds identical notifications).
CREATE FUNCTION storesync_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('storesync_webhooks', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
    FOR EACH ROW EXECUTE FUNCTION storesync_notify_webhooks();
CREATE TRIGGER webhook_deliveries_notify_retry AFTER UPDATE OF state ON webhook_deliveries
    FOR EACH ROW WHEN (OLD.state <> 'pending' AND NEW.state = 'pending') EXECUTE FUNCTION storesync_notify_webhooks();
