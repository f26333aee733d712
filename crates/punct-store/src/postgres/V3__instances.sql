-- PostgreSQL schema version 3: the instances serving from this database,
-- each with the time of its last heartbeat: a real write its readiness
-- check makes, so an instance that cannot write says it is not ready.
-- Released: never change this file.
CREATE TABLE instances (
    name TEXT PRIMARY KEY,
    beat TIMESTAMPTZ NOT NULL
);
