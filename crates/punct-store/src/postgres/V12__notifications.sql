-- PostgreSQL schema version 12: in-site notifications, as SQLite's schema
-- version 10 has them (issue 31, "coming back"). One row per event an
-- account is told of; (user_id, kind, subject, ply) is the event's key,
-- so whichever instances see an event, it is kept once. Times are ms
-- since 1970; `read` is null until read. Self-contained: it touches no
-- other table, so it can be renumbered.
CREATE TABLE notifications (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id  TEXT NOT NULL,
    kind     TEXT NOT NULL,
    subject  TEXT NOT NULL,
    ply      BIGINT NOT NULL,
    other    TEXT,
    created  BIGINT NOT NULL,
    read     BIGINT,
    UNIQUE (user_id, kind, subject, ply)
);
-- A user's list: unread first, newest first.
CREATE INDEX notifications_by_user ON notifications (user_id, read, created);
-- Pruning the read ones.
CREATE INDEX notifications_read ON notifications (read) WHERE read IS NOT NULL;
