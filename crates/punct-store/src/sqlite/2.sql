-- Schema version 2, from version 1: private seats (the invite code of the
-- seat waiting for its player) and imported records (marked, with their
-- own tags). Released: never change this file.
ALTER TABLE games ADD COLUMN invite TEXT;
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN tags TEXT;
