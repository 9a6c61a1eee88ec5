-- Time windows (waktu, mulai/sampai): an event matches a window when its date range overlaps it;
-- a GiST index on the range answers "overlaps" and "ended before" as one index condition.
-- greatest(): a row whose end_date is before its start_date must not make the range invalid.
CREATE INDEX IF NOT EXISTS "events_date_range_idx" ON "events" USING gist (daterange("start_date", greatest("start_date", "end_date"), '[]'));--> statement-breakpoint
-- "Not ended yet" (waktu=mendatang, related events) and "already ended" (waktu=berlalu): a range
-- on end_date, in end_date order; start_date and city_id included so the waktu facet counts of
-- the whole catalogue are an index-only scan.
CREATE INDEX IF NOT EXISTS "events_status_end_idx" ON "events" USING btree ("status", "end_date", "id") INCLUDE ("start_date", "city_id");--> statement-breakpoint
-- Near me: the bounding box of lat/lng/radius_km (the haversine test then filters it).
CREATE INDEX IF NOT EXISTS "events_lat_lng_idx" ON "events" USING btree ("latitude", "longitude") WHERE "latitude" IS NOT NULL;
