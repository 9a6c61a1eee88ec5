-- The most asked list pages are a city's or a category's newest events (the default sort): read
-- them in index order, a dozen entries, instead of fetching every event of the city and sorting
-- (`kota=denpasar`: 10 ms -> under 1 ms at 100k events). The old (city, status) and
-- (category, status) indexes are prefixes of these and go.
CREATE INDEX IF NOT EXISTS "events_city_created_idx" ON "events" ("city_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_category_created_idx" ON "events" ("category_id", "status", "created_at", "id");--> statement-breakpoint
DROP INDEX IF EXISTS "events_city_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "events_category_idx";
