-- How many published events each combination of the list's plain filters holds (issue 11): one
-- row per category, city ('' for events without one), format and free flag. A list total
-- filtered by nothing but those (`kota`, `kategori`, `format`, `gratis`) sums a few of these rows
-- instead of counting every matching event: the unfiltered total read 90k index entries at 100k
-- events (17 ms, EXPLAIN) and grows with the catalogue, and since every approval drops it from
-- the cache (`list:all`), it was counted again after each write. Here it sums at most a few
-- thousand rows, whatever the catalogue's size.
--
-- Kept by statement triggers over the transition tables (one grouped upsert per statement, also
-- for bulk edits). They are named to fire after the change-notification triggers (events_change_*,
-- alphabetical order), whose version bump takes the data_versions row lock: every transaction
-- updating these rows already holds that lock, so two of them never wait on each other's rows
-- in opposite orders.
CREATE TABLE IF NOT EXISTS "event_counts" (
  "category_id" text NOT NULL,
  "city_id" text NOT NULL,
  "event_type" text NOT NULL,
  "is_free" boolean NOT NULL,
  "n" integer NOT NULL,
  PRIMARY KEY ("category_id", "city_id", "event_type", "is_free")
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_counts_add(delta_rows jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_counts AS c (category_id, city_id, event_type, is_free, n)
  SELECT d.category_id, d.city_id, d.event_type, d.is_free, sum(d.n)::int
  FROM jsonb_to_recordset(delta_rows) AS d(category_id text, city_id text, event_type text, is_free boolean, n int)
  GROUP BY 1, 2, 3, 4
  HAVING sum(d.n) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (category_id, city_id, event_type, is_free) DO UPDATE SET n = c.n + EXCLUDED.n
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta jsonb;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM event_counts;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('category_id', category_id, 'city_id', coalesce(city_id, ''),
        'event_type', event_type::text, 'is_free', is_free, 'n', 1))
      INTO delta FROM new_rows WHERE status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('category_id', category_id, 'city_id', coalesce(city_id, ''),
        'event_type', event_type::text, 'is_free', is_free, 'n', -1))
      INTO delta FROM old_rows WHERE status = 'published';
  ELSE
    SELECT jsonb_agg(x) INTO delta FROM (
      SELECT jsonb_build_object('category_id', category_id, 'city_id', coalesce(city_id, ''),
          'event_type', event_type::text, 'is_free', is_free, 'n', 1) AS x
        FROM new_rows WHERE status = 'published'
      UNION ALL
      SELECT jsonb_build_object('category_id', category_id, 'city_id', coalesce(city_id, ''),
          'event_type', event_type::text, 'is_free', is_free, 'n', -1)
        FROM old_rows WHERE status = 'published'
    ) changed;
  END IF;
  IF delta IS NOT NULL THEN
    PERFORM event_counts_add(delta);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_published_counts_ins AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();--> statement-breakpoint
CREATE TRIGGER events_published_counts_upd AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();--> statement-breakpoint
CREATE TRIGGER events_published_counts_del AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();--> statement-breakpoint
CREATE TRIGGER events_published_counts_truncate AFTER TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION event_counts_apply();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_counts_city_idx" ON "event_counts" ("city_id");--> statement-breakpoint
-- the counts from scratch, into an empty table (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION event_counts_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_counts (category_id, city_id, event_type, is_free, n)
  SELECT category_id, coalesce(city_id, ''), event_type::text, is_free, count(*)::int
  FROM events WHERE status = 'published'
  GROUP BY 1, 2, 3, 4
$$;--> statement-breakpoint
DELETE FROM event_counts;--> statement-breakpoint
SELECT event_counts_fill();
