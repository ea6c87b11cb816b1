-- Signed JWS text is stored without compression (out of line when large, as before).
--
-- A JWS is base64url text: PostgreSQL's default compression (pglz) finds almost nothing to
-- take out of it, so every insert would pay for a compression attempt that keeps nothing.
-- Rows already stored keep their form; new ones are written this way.
ALTER TABLE transactions ALTER COLUMN signed_transaction SET STORAGE EXTERNAL;
ALTER TABLE renewal_infos ALTER COLUMN signed_renewal_info SET STORAGE EXTERNAL;
ALTER TABLE unclaimed_versions ALTER COLUMN signed_payload SET STORAGE EXTERNAL;

-- Applied by earlier releases as a file whose comments have since been mended:
-- applied-as-file-sha256: 1079751f1e8ade9a385815bb1457e14724a792f650539921efe21ec94d15db5b
