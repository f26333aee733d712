-- Schema version 3, from version 2: a game site's game. Players' display
-- names; the time control and the clocks (milliseconds left for each side
-- when its turn began, and when the running clock started); games where
-- the engine helped a player; rematch offers and the game a rematch made;
-- the post-game analysis. Released: never change this file.
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN white_ms INTEGER;
ALTER TABLE games ADD COLUMN black_ms INTEGER;
ALTER TABLE games ADD COLUMN clock_since INTEGER;
ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN review TEXT;
