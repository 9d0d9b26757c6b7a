-- Posts whose outcome is unknown (issue 29). `claimed_at` is when the row's current lease was taken
-- (written by the claim or the enqueue that leases it: no row of its own). `posts_uncertain_since`
-- is set when an attempt ended without a settle (its lease ran out: the isolate died, or the
-- attempt outlived it), or settled after sending a post whose answer it never learned: from then
-- on, every post of the row is first looked for in Slack (by the post's id in its message metadata)
-- and posted only when it is not there. Rows of before this migration have neither; the first
-- claim of one of them taking an expired lease counts from its `created_at`.
ALTER TABLE outbox ADD COLUMN claimed_at INTEGER;
ALTER TABLE outbox ADD COLUMN posts_uncertain_since INTEGER;
