-- PostgreSQL schema version 7: the lobby, as SQLite's schema version 5 has
-- it, shared by every instance on the database. One row per open seek (a
-- game offered to whoever accepts it, kind 'seek') or quick-pairing entry
-- (kind 'pool'): the seeker (an account, or none for an anonymous one; the
-- name shown; a bot; the rating in the category), the game sought
-- (variant, the clock as JSON as games keep it, rated, side), the seat
-- token the seeker will hold (secret: never listed), the instance holding
-- the seeker's live socket and when it last confirmed it (a seek not
-- confirmed for a while is a dead instance's), and the game once paired.
-- Times are ms since 1970. Released: never change this file.
CREATE TABLE seeks (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    user_id  TEXT,
    name     TEXT,
    bot      BOOLEAN NOT NULL DEFAULT FALSE,
    rating   BIGINT,
    category TEXT,
    variant  TEXT NOT NULL,
    clock    TEXT,
    rated    BOOLEAN NOT NULL DEFAULT FALSE,
    side     TEXT NOT NULL,
    token    TEXT NOT NULL,
    instance TEXT NOT NULL,
    created  BIGINT NOT NULL,
    seen     BIGINT NOT NULL,
    game     TEXT
);
-- The lobby's list, oldest first.
CREATE INDEX seeks_by_created ON seeks (kind, created, id COLLATE "C");
-- The pool of one game, by rating.
CREATE INDEX seeks_pool ON seeks (variant, clock, rating) WHERE kind = 'pool';
-- An instance's seeks (confirmed together), and the dead ones' clean-up.
CREATE INDEX seeks_by_instance ON seeks (instance);
CREATE INDEX seeks_by_seen ON seeks (seen);
