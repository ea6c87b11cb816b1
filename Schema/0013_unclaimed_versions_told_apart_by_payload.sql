-- A purchase's unclaimed versions are told apart by what was signed, not only by when.
--
-- The key was (purchase, kind, signing time). Two versions of one purchase that Apple signed in
-- the same millisecond (the transactions of one App Store Server API history answer, stored for
-- their holder and released when its account was deleted) collided, and the insert kept one of
-- them without a word: the next account to present the purchase got part of its history (the
-- renewal that entitles it, or the refund that takes it back, could be the one lost). The key now
-- also holds the SHA-256 of the signed payload (its bytes when the text is stored split, else the
-- whole text), so the same signed version is still kept once and two different ones both are.
--
-- The digest is a generated column: PostgreSQL works it out from the row, existing rows
-- included, and no statement that keeps a version has to.

-- convert_to is only STABLE because it depends on the database's encoding, which is fixed when
-- the database is created (UTF8 here): for one database the result never changes.
CREATE FUNCTION storesync_payload_sha256(payload bytea, whole_text text) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT sha256(coalesce(payload, convert_to(whole_text, 'UTF8'))) $$;

ALTER TABLE unclaimed_versions
    ADD COLUMN payload_sha256 bytea GENERATED ALWAYS AS (storesync_payload_sha256(jws_payload, signed_payload)) STORED,
    DROP CONSTRAINT unclaimed_versions_pkey,
    ADD PRIMARY KEY (original_transaction_id, kind, signed_date, payload_sha256);
