-- PostgreSQL schema version 5: the work done so far on a job (a post-game
-- review's positions searched), saved while it runs so that an instance
-- taking the job over goes on from there. Cleared when the job's kind
-- changes. Released: never change this file.
ALTER TABLE jobs ADD COLUMN progress TEXT;
