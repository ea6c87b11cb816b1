-- Sign-in and sign-up throttling, shared by every server instance (DESIGN §7: throttles are
-- shared through PostgreSQL, so N instances behind a load balancer allow what one does).
--
-- One row per limited key: the scope says what is counted (sign-in failures per email, sign-in
-- attempts per client address, sign-up attempts per client address) and key_sha256 is the
-- SHA-256 of the normalised email or the address, never the email itself. `attempts` holds the
-- times of the key's recent attempts (at most the scope's limit: the server keeps no more);
-- an attempt is reserved — the row locked, counted and written — before any password is
-- hashed, so a concurrent burst gets no more guesses than the limit. `expires_at` is when the
-- newest attempt leaves the window; rows past it are deleted as new attempts come in, which
-- bounds the table by the attempts of one window.
CREATE TABLE login_throttle (
    scope      text          NOT NULL CHECK (scope IN ('sign-in-email', 'sign-in-address', 'sign-up-address')),
    key_sha256 bytea         NOT NULL CHECK (length(key_sha256) = 32),
    attempts   timestamptz[] NOT NULL,
    expires_at timestamptz   NOT NULL,
    PRIMARY KEY (scope, key_sha256)
);

CREATE INDEX login_throttle_expiry ON login_throttle (expires_at);
