-- The search copy (event_search, migration 0021) also serves lists by city or category (issue 11):
-- it gains the two other plain filters (format, free) and an index per city or category and list
-- order, so a page such as `kota=makassar&sort=title_asc` reads its 12 ids in order from one index
-- of narrow published-only rows, then those events by id. On events the planner walked the global
-- title (or price, or date) index and fetched a wide row per entry to test the city: 20-60 ms for
-- a city or category holding a few percent of the catalogue (EXPLAIN), more as it grows.
-- The copy is derived: it is emptied and filled again (an UPDATE of every row would leave the
-- table and its GIN index twice their size), with the GIN index built after the fill.
DROP INDEX IF EXISTS "event_search_lexemes_idx";--> statement-breakpoint
TRUNCATE "event_search";--> statement-breakpoint
ALTER TABLE "event_search" ADD COLUMN IF NOT EXISTS "event_type" text NOT NULL;--> statement-breakpoint
ALTER TABLE "event_search" ADD COLUMN IF NOT EXISTS "is_free" boolean NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_search_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'published' THEN
    INSERT INTO event_search (event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type, is_free, lexemes)
    VALUES (NEW.id, NEW.created_at, NEW.title, NEW.start_date, NEW.ticket_price_min, NEW.city_id, NEW.category_id,
      NEW.event_type::text, NEW.is_free, strip(NEW.search_document))
    ON CONFLICT (event_id) DO UPDATE
      SET created_at = EXCLUDED.created_at, title = EXCLUDED.title, start_date = EXCLUDED.start_date,
        ticket_price_min = EXCLUDED.ticket_price_min, city_id = EXCLUDED.city_id, category_id = EXCLUDED.category_id,
        event_type = EXCLUDED.event_type, is_free = EXCLUDED.is_free, lexemes = EXCLUDED.lexemes;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM event_search WHERE event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_search_upd ON events;--> statement-breakpoint
CREATE TRIGGER events_search_upd AFTER UPDATE ON events FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.search_document IS DISTINCT FROM NEW.search_document
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.ticket_price_min IS DISTINCT FROM NEW.ticket_price_min
    OR OLD.city_id IS DISTINCT FROM NEW.city_id OR OLD.category_id IS DISTINCT FROM NEW.category_id
    OR OLD.event_type IS DISTINCT FROM NEW.event_type OR OLD.is_free IS DISTINCT FROM NEW.is_free)
  EXECUTE FUNCTION event_search_put();--> statement-breakpoint
-- the copy from scratch, into an empty table (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION event_search_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_search (event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type, is_free, lexemes)
  SELECT id, created_at, title, start_date, ticket_price_min, city_id, category_id, event_type::text, is_free, strip(search_document)
  FROM events WHERE status = 'published'
$$;--> statement-breakpoint
SELECT event_search_fill();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_lexemes_idx" ON "event_search" USING gin ("lexemes") WITH (fastupdate = off);--> statement-breakpoint
-- every list order within a city and within a category (descending orders read them backwards)
CREATE INDEX IF NOT EXISTS "event_search_city_created_idx" ON "event_search" ("city_id", "created_at", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_city_start_idx" ON "event_search" ("city_id", "start_date", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_city_price_idx" ON "event_search" ("city_id", "ticket_price_min", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_city_title_idx" ON "event_search" ("city_id", "title", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_category_created_idx" ON "event_search" ("category_id", "created_at", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_category_start_idx" ON "event_search" ("category_id", "start_date", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_category_price_idx" ON "event_search" ("category_id", "ticket_price_min", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_category_title_idx" ON "event_search" ("category_id", "title", "event_id");--> statement-breakpoint
-- prefixes of the new ones
DROP INDEX IF EXISTS "event_search_city_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "event_search_category_idx";--> statement-breakpoint
ANALYZE "event_search";
