-- Receipts move to one table per generation, receipts_g{generation}, created by the shard when
-- its generation begins (src/shard/receipts.ts): pruning a generation is then DROP TABLE, which
-- writes no rows, where deleting its receipts one by one wrote one row each — a fifth of what
-- an event cost. The single table of 0001 stays, renamed, for as long as it holds receipts a
-- retry could still meet; the shard prunes it as before and drops it once it is empty.
ALTER TABLE receipts RENAME TO receipts_before_generations;
