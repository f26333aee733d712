-- PostgreSQL schema version 8: WebAuthn ceremonies (passkeys) between
-- their start and their finish, as SQLite's schema version 6 has them, so
-- that a finish reaching another instance finds the challenge it
-- answers. A ceremony is taken once (its finish deletes it, returning
-- it) and lives a few minutes. Times are ms since 1970. Released: never
-- change this file.
CREATE TABLE ceremonies (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    user_id  TEXT,
    state    TEXT NOT NULL,
    expires  BIGINT NOT NULL
);
CREATE INDEX ceremonies_by_expiry ON ceremonies (expires);
