-- A purchase's unclaimed versions are told apart by what was signed, not only by when.
--
-- The key was (purchase, kind, signing time). Two versions of one purchase that Apple signed in
-- the same millisecond (the transactions of one App Store Server API history answer, stored for
-- their holder and released when its account was deleted) collided, and the insert kept one of
-- them without a word: the next account to present the purchase got part of its history (the
-- renewal that entitles it, or the refund that takes it back, could be the one lost). The key now
-- also holds the SHA-256 of the signed payload (its bytes when the text is stored split, else the
-- whole text), so the same signed version is still kept once and two different ones both are.
ALTER TABLE unclaimed_versions ADD COLUMN payload_sha256 bytea;

UPDATE unclaimed_versions SET payload_sha256 = sha256(coalesce(jws_payload, convert_to(signed_payload, 'UTF8')));

ALTER TABLE unclaimed_versions
    ALTER COLUMN payload_sha256 SET NOT NULL,
    ADD CONSTRAINT unclaimed_versions_payload_sha256_length CHECK (length(payload_sha256) = 32),
    DROP CONSTRAINT unclaimed_versions_pkey,
    ADD PRIMARY KEY (original_transaction_id, kind, signed_date, payload_sha256);
