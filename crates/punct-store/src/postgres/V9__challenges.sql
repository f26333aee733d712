-- PostgreSQL schema version 9: direct challenges and blocks, as SQLite's
-- schema version 7 has them. A challenge is a seek (kind 'challenge')
-- offered to one account, `to_user`, who accepts or declines it. A block is
-- one user refusing another's challenges and pairings. Times are ms since
-- 1970. Released: never change this file.
ALTER TABLE seeks ADD COLUMN to_user TEXT;
-- A user's challenges, made or received.
CREATE INDEX seeks_to_user ON seeks (to_user) WHERE to_user IS NOT NULL;
CREATE TABLE blocks (
    user_id  TEXT NOT NULL,
    other_id TEXT NOT NULL,
    created  BIGINT NOT NULL,
    PRIMARY KEY (user_id, other_id)
);
-- Who blocks a user (a user's blocks either way, for pairing).
CREATE INDEX blocks_by_other ON blocks (other_id);
