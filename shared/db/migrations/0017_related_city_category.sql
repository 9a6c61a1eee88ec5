-- Related events of the same city and category, ending soonest, read in index order (an
-- index-only scan of a few entries) instead of a bitmap scan and sort of every such event.
CREATE INDEX IF NOT EXISTS "events_city_category_end_idx" ON "events" ("city_id", "category_id", "status", "end_date", "id");
