-- PostgreSQL schema version 10: the fixed phrases the players of a game
-- said to each other, as SQLite's schema version 8 has them (the server's
-- chat.rs writes and reads the words). Released: never change this file.
ALTER TABLE games ADD COLUMN chat TEXT;
