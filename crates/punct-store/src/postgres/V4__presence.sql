-- PostgreSQL schema version 4: who is connected to each game, one row per
-- game and instance serving its live sockets (store/presence.rs), so that
-- abandonment, "opponent away" and spectator counts are true across
-- instances. Released: never change this file.
CREATE TABLE presence (
    game_id       TEXT NOT NULL,
    instance      TEXT NOT NULL,
    -- Live sockets on that instance holding each seat, and watching.
    white_sockets INTEGER NOT NULL,
    black_sockets INTEGER NOT NULL,
    spectators    INTEGER NOT NULL,
    -- When each side's last socket there closed (ms since 1970).
    white_left    BIGINT,
    black_left    BIGINT,
    -- When the instance last confirmed the row (ms since 1970): a row not
    -- confirmed for a while is a dead instance's.
    seen          BIGINT NOT NULL,
    PRIMARY KEY (game_id, instance)
);
-- Old rows' clean-up.
CREATE INDEX presence_by_seen ON presence (seen);
