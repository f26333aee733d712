-- PostgreSQL schema version 2: the jobs games wait for (the AI's move, the
-- post-game review), which any instance may take (store/jobs.rs). A row
-- exists while its game waits; each write of the game puts or removes it.
-- Released: never change this file.
CREATE TABLE jobs (
    game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL CHECK (kind IN ('move', 'review')),
    -- The game's version when the job was put (or last changed).
    version BIGINT NOT NULL,
    -- The instance working on it, its claim's token and until when the
    -- claim holds unless renewed; all NULL while the job waits.
    owner   TEXT,
    claim   TEXT,
    lease   TIMESTAMPTZ,
    -- Since when it waits for this kind of work.
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- The take-over's scan: oldest first.
CREATE INDEX jobs_by_age ON jobs (created);
