-- Schema version 8, from version 7: the fixed phrases the players of a
-- game said to each other (the server's chat.rs writes and reads the
-- words). Released: never change this file.
ALTER TABLE games ADD COLUMN chat TEXT;
