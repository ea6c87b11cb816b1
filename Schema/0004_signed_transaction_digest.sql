-- The SHA-256 of each stored signed transaction's exact text (UTF-8), written by the server
-- with the version.
--
-- Only a JWS that verified is stored with evidence 'jws', so a restore that presents a text
-- the account already holds needs no second ECDSA and chain check: the server looks the
-- presented texts' digests up among the account's rows and takes the row each was stored in.
-- This makes a restore of known purchases cheap on every instance and after every restart,
-- not only on the process that verified them (its in-memory memo). NULL where a version has
-- no JWS. Existing rows are filled in here; the column is small and needs no index, because
-- it is only read together with account_id (the primary key's first column).
ALTER TABLE transactions
    ADD COLUMN signed_transaction_sha256 bytea CHECK (length(signed_transaction_sha256) = 32);

UPDATE transactions
SET signed_transaction_sha256 = sha256(convert_to(signed_transaction, 'UTF8'))
WHERE signed_transaction IS NOT NULL;

ALTER TABLE transactions ADD CONSTRAINT transactions_jws_has_digest
    CHECK ((signed_transaction IS NULL) = (signed_transaction_sha256 IS NULL));

-- Applied by earlier releases as a file whose comments have since been mended:
-- applied-as-file-sha256: dbe8616f31c254889388aedd9c621737084d1ca685c0551f08ba860fe760f03a
