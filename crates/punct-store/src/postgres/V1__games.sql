-- PostgreSQL schema version 1: the games table as SQLite's schema version 3
-- has it (PostgreSQL support starts there). Applied by refinery through
-- `punct db migrate`. Released: never change this file.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    variant       TEXT NOT NULL,
    mode          TEXT NOT NULL,
    ai_level      INTEGER,
    ai_side       TEXT,
    white_token   TEXT,
    black_token   TEXT,
    start         TEXT NOT NULL,
    moves         TEXT NOT NULL,
    result        TEXT,
    reason        TEXT,
    draw_offer    TEXT,
    takeback      TEXT,
    created       BIGINT NOT NULL,
    updated       BIGINT NOT NULL,
    version       BIGINT NOT NULL,
    status        TEXT NOT NULL,
    plies         BIGINT NOT NULL,
    invite        TEXT,
    imported      BOOLEAN NOT NULL DEFAULT FALSE,
    tags          TEXT,
    white_name    TEXT,
    black_name    TEXT,
    clock         TEXT,
    white_ms      BIGINT,
    black_ms      BIGINT,
    clock_since   BIGINT,
    assisted      BOOLEAN NOT NULL DEFAULT FALSE,
    rematch_offer TEXT,
    rematch       TEXT,
    review        TEXT
);
-- Listings: most recently changed first.
CREATE INDEX games_by_update ON games (updated DESC, id COLLATE "C");
-- The clocks' pick-up: ongoing games with a running clock.
CREATE INDEX games_running_clocks ON games (clock_since)
    WHERE status = 'ongoing' AND clock_since IS NOT NULL;
