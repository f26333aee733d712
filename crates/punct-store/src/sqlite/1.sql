-- Schema version 1, exactly as the release before schema versions made it
-- (it left PRAGMA user_version at 0). Released: never change this file.
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    mode        TEXT NOT NULL,
    ai_level    INTEGER,
    ai_side     TEXT,
    white_token TEXT,
    black_token TEXT,
    start       TEXT NOT NULL,
    moves       TEXT NOT NULL,
    result      TEXT,
    reason      TEXT,
    draw_offer  TEXT,
    takeback    TEXT,
    created     INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    status      TEXT NOT NULL,
    plies       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated DESC);
