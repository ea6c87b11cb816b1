-- Each distinct JWS protected header is stored once; each row keeps what is its own.
--
-- A StoreKit 2 JWS is `header.payload.signature`, each part base64url. The header carries the
-- x5c certificate chain (most of the text), and Apple signs every transaction, renewal info and
-- notification of a period with the same chain: stored in every row, the same certificates were
-- written once per transaction. Now the header's exact text is stored once in jws_headers, keyed
-- by its SHA-256, and a row keeps that digest with its payload and signature decoded (bytea: a
-- quarter smaller than their base64url text, and kept in the row instead of out of line).
--
-- Every stored text stays reconstructable byte for byte, header || '.' || base64url(payload) ||
-- '.' || base64url(signature) (storesync_jws): only a text whose payload and signature are
-- canonical base64url (no padding, the URL alphabet, zero trailing bits: the one spelling that
-- decodes to those bytes, as the server's verifier requires) is split; any other text is kept
-- whole in the old column. transactions.signed_transaction_sha256 stays the SHA-256 of the
-- exact text.
--
-- Rows do not reference jws_headers by a foreign key: every insert would lock the one header row
-- all rows of a period share (FOR KEY SHARE), and concurrent restores would contend on it. The
-- server writes a row's header in the same statement as the row, and a trigger keeps headers from
-- being changed or deleted. jws_headers is global (not account-scoped): a reference table under
-- Citus.

CREATE TABLE jws_headers (
    header_sha256 bytea PRIMARY KEY CHECK (length(header_sha256) = 32),
    -- the header part of a compact JWS exactly as signed (base64url of the header JSON)
    header        text  NOT NULL,
    CONSTRAINT jws_headers_digest_matches CHECK (header_sha256 = sha256(convert_to(header, 'UTF8')))
);

CREATE FUNCTION storesync_jws_headers_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'JWS headers are referenced by digest and never change' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER jws_headers_immutable BEFORE UPDATE OR DELETE ON jws_headers
    FOR EACH ROW EXECUTE FUNCTION storesync_jws_headers_are_immutable();
CREATE TRIGGER jws_headers_not_truncated BEFORE TRUNCATE ON jws_headers
    FOR EACH STATEMENT EXECUTE FUNCTION storesync_jws_headers_are_immutable();

-- Unpadded base64url of bytes: the one spelling storesync_base64url_decode accepts.
CREATE FUNCTION storesync_base64url(bytes bytea) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT rtrim(translate(encode(bytes, 'base64'), '+/' || chr(10), '-_'), '=')
$$;

-- The bytes of canonical unpadded base64url text; NULL for any other text (another alphabet,
-- padding, whitespace, non-zero trailing bits), which could not be spelled again exactly.
CREATE FUNCTION storesync_base64url_decode(encoded text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT decoded FROM (
        SELECT CASE WHEN encoded ~ '^[A-Za-z0-9_-]*$' AND length(encoded) % 4 <> 1
            THEN decode(translate(encoded, '-_', '+/') || repeat('=', (4 - length(encoded) % 4) % 4), 'base64')
        END AS decoded
    ) AS attempt
    WHERE storesync_base64url(decoded) = encoded
$$;

-- The exact text of a JWS stored in parts; NULL when any part is NULL. A header that is not
-- stored is an error, never a missing text.
CREATE FUNCTION storesync_jws(header_sha256 bytea, payload bytea, signature bytea) RETURNS text
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
DECLARE
    stored text;
BEGIN
    SELECT jws_headers.header INTO stored FROM jws_headers WHERE jws_headers.header_sha256 = storesync_jws.header_sha256;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no JWS header has the digest %', encode(storesync_jws.header_sha256, 'hex')
            USING ERRCODE = 'data_corrupted';
    END IF;
    RETURN stored || '.' || storesync_base64url(payload) || '.' || storesync_base64url(signature);
END;
$$;

-- The three columns of a JWS stored in parts, on each table that keeps signed text; the text
-- column keeps only texts that do not split.
ALTER TABLE transactions
    ADD COLUMN jws_header_sha256 bytea,
    ADD COLUMN jws_payload       bytea,
    ADD COLUMN jws_signature     bytea,
    ADD CONSTRAINT transactions_jws_parts
        CHECK ((jws_header_sha256 IS NULL) = (jws_payload IS NULL) AND (jws_payload IS NULL) = (jws_signature IS NULL)),
    ADD CONSTRAINT transactions_jws_one_form CHECK (signed_transaction IS NULL OR jws_payload IS NULL),
    DROP CONSTRAINT transactions_jws_has_digest,
    ADD CONSTRAINT transactions_jws_has_digest
        CHECK ((signed_transaction_sha256 IS NULL) = (signed_transaction IS NULL AND jws_payload IS NULL));

ALTER TABLE renewal_infos
    ADD COLUMN jws_header_sha256 bytea,
    ADD COLUMN jws_payload       bytea,
    ADD COLUMN jws_signature     bytea,
    ADD CONSTRAINT renewal_infos_jws_parts
        CHECK ((jws_header_sha256 IS NULL) = (jws_payload IS NULL) AND (jws_payload IS NULL) = (jws_signature IS NULL)),
    ADD CONSTRAINT renewal_infos_jws_one_form CHECK (signed_renewal_info IS NULL OR jws_payload IS NULL);

ALTER TABLE unclaimed_versions
    ALTER COLUMN signed_payload DROP NOT NULL,
    ADD COLUMN jws_header_sha256 bytea,
    ADD COLUMN jws_payload       bytea,
    ADD COLUMN jws_signature     bytea,
    ADD CONSTRAINT unclaimed_versions_jws_parts
        CHECK ((jws_header_sha256 IS NULL) = (jws_payload IS NULL) AND (jws_payload IS NULL) = (jws_signature IS NULL)),
    ADD CONSTRAINT unclaimed_versions_jws_one_form CHECK ((signed_payload IS NULL) <> (jws_payload IS NULL));

-- Existing rows: every text that splits canonically is split, its header stored once.
CREATE FUNCTION storesync_jws_splits(jws text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT length(jws) - length(replace(jws, '.', '')) = 2
        AND storesync_base64url_decode(split_part(jws, '.', 2)) IS NOT NULL
        AND storesync_base64url_decode(split_part(jws, '.', 3)) IS NOT NULL
$$;

DO $$
DECLARE
    stored record;
BEGIN
    FOR stored IN
        SELECT * FROM (VALUES
            ('transactions', 'signed_transaction'), ('renewal_infos', 'signed_renewal_info'),
            ('unclaimed_versions', 'signed_payload')
        ) AS signed_text (table_name, text_column)
    LOOP
        EXECUTE format(
            $sql$
            INSERT INTO jws_headers (header_sha256, header)
            SELECT DISTINCT sha256(convert_to(split_part(%2$I, '.', 1), 'UTF8')), split_part(%2$I, '.', 1)
            FROM %1$I WHERE storesync_jws_splits(%2$I)
            ON CONFLICT DO NOTHING
            $sql$, stored.table_name, stored.text_column);
        EXECUTE format(
            $sql$
            UPDATE %1$I
            SET jws_header_sha256 = sha256(convert_to(split_part(%2$I, '.', 1), 'UTF8')),
                jws_payload = storesync_base64url_decode(split_part(%2$I, '.', 2)),
                jws_signature = storesync_base64url_decode(split_part(%2$I, '.', 3)),
                %2$I = NULL
            WHERE storesync_jws_splits(%2$I)
            $sql$, stored.table_name, stored.text_column);
    END LOOP;
END;
$$;

DROP FUNCTION storesync_jws_splits(text);
