-- `gratis=0` sorted by price (issue 11): the price order starts with every free event (price 0),
-- so walking events_status_price_idx skipped ~18k free entries, each a heap fetch, before the
-- first paid one: 40-70 ms per page at 100k events (EXPLAIN); this index starts at the first
-- paid event (about 1 ms), and serves `gratis=1` in price order too.
CREATE INDEX IF NOT EXISTS "events_free_price_idx" ON "events" ("is_free", "status", "ticket_price_min", "id");
