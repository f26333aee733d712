-- Schema version 8 is another branch's (issue 31): this placeholder
-- keeps the versions without a gap until that branch is merged, and is
-- replaced by its file then. It changes nothing.
SELECT 1;
