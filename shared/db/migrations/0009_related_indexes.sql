-- Related events read "upcoming events of this category / this city, ending soonest" straight
-- from an index instead of walking every upcoming event until enough match.
CREATE INDEX IF NOT EXISTS "events_category_end_idx" ON "events" ("category_id", "status", "end_date", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_city_end_idx" ON "events" ("city_id", "status", "end_date", "id");
