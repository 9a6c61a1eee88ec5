-- List totals from the index alone: every contract filter but the tag (category, city, format,
-- free) is in it, so a count is an index-only scan of narrow entries instead of a visit to each
-- matching event's (wide) row: category + gratis went from ~110 ms to 0.2 ms at 100k events.
CREATE INDEX IF NOT EXISTS "events_count_idx" ON "events" ("status", "category_id", "city_id", "event_type", "is_free");
