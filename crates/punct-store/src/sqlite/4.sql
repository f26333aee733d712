-- Schema version 4, from version 3: accounts and ratings. Users (a name
-- whose key stays taken after the account is deleted, a password as a PHC
-- string, bots), their sessions, passkeys and API tokens (each credential
-- by the hash or id it is found by), a rating per user and category with
-- its history per rated game; on games, the users in the seats and
-- whether the game is rated. Times are ms since 1970. Released: never
-- change this file.
CREATE TABLE users (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created  INTEGER NOT NULL,
    seen     INTEGER NOT NULL,
    password TEXT,
    bot      INTEGER NOT NULL DEFAULT 0,
    deleted  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    hash     TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    created  INTEGER NOT NULL,
    seen     INTEGER NOT NULL,
    expires  INTEGER NOT NULL,
    agent    TEXT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires);
CREATE TABLE passkeys (
    id       TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    name     TEXT NOT NULL,
    data     TEXT NOT NULL,
    created  INTEGER NOT NULL,
    used     INTEGER
);
CREATE INDEX passkeys_by_user ON passkeys (user_id);
CREATE TABLE api_tokens (
    hash     TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    label    TEXT NOT NULL,
    created  INTEGER NOT NULL,
    used     INTEGER
);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
CREATE TABLE ratings (
    user_id    TEXT NOT NULL REFERENCES users (id),
    category   TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated    INTEGER NOT NULL,
    PRIMARY KEY (user_id, category)
);
-- The leaderboard: a category's ratings, best first.
CREATE INDEX ratings_by_category ON ratings (category, rating DESC);
CREATE TABLE rating_history (
    game       TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    category   TEXT NOT NULL,
    at         INTEGER NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    change     REAL NOT NULL,
    score      REAL NOT NULL,
    opponent   TEXT NOT NULL,
    PRIMARY KEY (game, user_id)
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, category, at);
ALTER TABLE games ADD COLUMN white_user TEXT;
ALTER TABLE games ADD COLUMN black_user TEXT;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
-- A user's games, most recently changed first.
CREATE INDEX games_by_white_user ON games (white_user, updated DESC)
    WHERE white_user IS NOT NULL;
CREATE INDEX games_by_black_user ON games (black_user, updated DESC)
    WHERE black_user IS NOT NULL;
