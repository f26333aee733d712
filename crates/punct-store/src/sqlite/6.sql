-- Schema version 6, from version 5: WebAuthn ceremonies (passkeys) between
-- their start and their finish, so that a finish reaching another
-- instance (or this one after a restart) finds the challenge it answers.
-- A ceremony is taken once (its finish deletes it) and lives a few
-- minutes. Times are ms since 1970. Released: never change this file.
CREATE TABLE ceremonies (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    user_id  TEXT,
    state    TEXT NOT NULL,
    expires  INTEGER NOT NULL
);
CREATE INDEX ceremonies_by_expiry ON ceremonies (expires);
