-- PostgreSQL schema version 11: the playban's count, as SQLite's schema
-- version 9 has it. A row per game and user that left it badly (kind
-- 'abandonment': lost by abandonment; 'time_away': lost on time with no
-- live connection; 'abort': aborted it), at the game's end (ms since
-- 1970). Nothing else reads or writes this table, so the step stands
-- alone. Released: never change this file.
CREATE TABLE conduct (
    user_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    kind    TEXT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
-- A user's recent games, by time.
CREATE INDEX conduct_by_time ON conduct (user_id, at);
