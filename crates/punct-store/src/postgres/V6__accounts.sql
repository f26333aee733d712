-- PostgreSQL schema version 6: accounts and ratings, as SQLite's schema
-- version 4 has them. Users (a name whose key stays taken after the
-- account is deleted, a password as a PHC string, bots), their sessions,
-- passkeys and API tokens (each credential by the hash or id it is found
-- by), a rating per user and category with its history per rated game;
-- on games, the users in the seats and whether the game is rated. Times
-- are ms since 1970. Released: never change this file.
CREATE TABLE users (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created  BIGINT NOT NULL,
    seen     BIGINT NOT NULL,
    password TEXT,
    bot      BOOLEAN NOT NULL DEFAULT FALSE,
    deleted  BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE sessions (
    hash     TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    created  BIGINT NOT NULL,
    seen     BIGINT NOT NULL,
    expires  BIGINT NOT NULL,
    agent    TEXT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires);
CREATE TABLE passkeys (
    id       TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    name     TEXT NOT NULL,
    data     TEXT NOT NULL,
    created  BIGINT NOT NULL,
    used     BIGINT
);
CREATE INDEX passkeys_by_user ON passkeys (user_id);
CREATE TABLE api_tokens (
    hash     TEXT PRIMARY KEY,
    user_id  TEXT NOT NULL REFERENCES users (id),
    label    TEXT NOT NULL,
    created  BIGINT NOT NULL,
    used     BIGINT
);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
CREATE TABLE ratings (
    user_id    TEXT NOT NULL REFERENCES users (id),
    category   TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated    BIGINT NOT NULL,
    PRIMARY KEY (user_id, category)
);
-- The leaderboard: a category's ratings, best first.
CREATE INDEX ratings_by_category ON ratings (category, rating DESC);
CREATE TABLE rating_history (
    game       TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    category   TEXT NOT NULL,
    at         BIGINT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    change     DOUBLE PRECISION NOT NULL,
    score      DOUBLE PRECISION NOT NULL,
    opponent   TEXT NOT NULL,
    PRIMARY KEY (game, user_id)
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, category, at);
ALTER TABLE games
    ADD COLUMN white_user TEXT,
    ADD COLUMN black_user TEXT,
    ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
-- A user's games, most recently changed first.
CREATE INDEX games_by_white_user ON games (white_user, updated DESC, id COLLATE "C")
    WHERE white_user IS NOT NULL;
CREATE INDEX games_by_black_user ON games (black_user, updated DESC, id COLLATE "C")
    WHERE black_user IS NOT NULL;
