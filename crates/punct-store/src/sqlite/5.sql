-- Schema version 5, from version 4: the lobby. One row per open seek (a
-- game offered to whoever accepts it, kind 'seek') or quick-pairing entry
-- (kind 'pool'): the seeker (an account, or none for an anonymous one; the
-- name shown; a bot; the rating in the category), the game sought
-- (variant, the clock as JSON as games keep it, rated, side), the seat
-- token the seeker will hold (secret: never listed), the instance holding
-- the seeker's live socket and when it last confirmed it, and the game
-- once paired. Times are ms since 1970. Released: never change this file.
CREATE TABLE seeks (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    user_id  TEXT,
    name     TEXT,
    bot      INTEGER NOT NULL DEFAULT 0,
    rating   INTEGER,
    category TEXT,
    variant  TEXT NOT NULL,
    clock    TEXT,
    rated    INTEGER NOT NULL DEFAULT 0,
    side     TEXT NOT NULL,
    token    TEXT NOT NULL,
    instance TEXT NOT NULL,
    created  INTEGER NOT NULL,
    seen     INTEGER NOT NULL,
    game     TEXT
);
-- The lobby's list, oldest first.
CREATE INDEX seeks_by_created ON seeks (kind, created, id);
-- The pool of one game, by rating.
CREATE INDEX seeks_pool ON seeks (variant, clock, rating) WHERE kind = 'pool';
-- An instance's seeks (confirmed together), and the dead ones' clean-up.
CREATE INDEX seeks_by_instance ON seeks (instance);
CREATE INDEX seeks_by_seen ON seeks (seen);
