-- Schema version 10: in-site notifications (issue 31, "coming back"). One
-- row per event an account is told of: a challenge received, its turn in
-- a correspondence game, a game over, time running low. `subject` is the
-- game's id (or the challenge's seek id), `ply` the game's ply the event
-- is at (0 for a challenge): with the account and the kind it is the
-- event's key, so whichever instances see an event, it is kept once.
-- Times are ms since 1970; `read` is null until read. Self-contained: it
-- touches no other table, so it can be renumbered.
CREATE TABLE notifications (
    id       INTEGER PRIMARY KEY,
    user_id  TEXT NOT NULL,
    kind     TEXT NOT NULL,
    subject  TEXT NOT NULL,
    ply      INTEGER NOT NULL,
    other    TEXT,
    created  INTEGER NOT NULL,
    read     INTEGER,
    UNIQUE (user_id, kind, subject, ply)
);
-- A user's list: unread first, newest first.
CREATE INDEX notifications_by_user ON notifications (user_id, read, created);
-- Pruning the read ones.
CREATE INDEX notifications_read ON notifications (read) WHERE read IS NOT NULL;
