-- A narrow copy of what a public event search reads (issue 11): one row per published event, its
-- search document without positions or weights, the two filters searches combine most (city,
-- category) and the keys of every list order (created, title, start date, price), so such a
-- search finds its page of ids here, in any order, and reads only those events. The events rows are wide (~2.6 KB at 100k events, two to three per page), so both
-- ways PostgreSQL answers a search read far more on events than here: a GIN bitmap of a common
-- word spans a page per match, and a walk that stops after the first thousand matches fetches and
-- decompresses a full document per row. Here a row is ~0.5 KB, mostly uncompressed. Measured at 100k
-- events (EXPLAIN ANALYZE, warm): the capped count of `kesehatan:*` 24 ms -> 2.2 ms, of
-- `online:* & pagar:*` 14 ms -> 1.8 ms. Kept by row triggers: the relevance rank and the
-- suggestions (title weight) still read events.search_document. The GIN index takes writes
-- directly (no pending list): a search never scans a backlog of unsorted entries.
CREATE TABLE IF NOT EXISTS "event_search" (
  "event_id" text PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL,
  "title" text NOT NULL,
  "start_date" date NOT NULL,
  "ticket_price_min" numeric(14, 2) NOT NULL,
  "city_id" text,
  "category_id" text NOT NULL,
  "lexemes" tsvector NOT NULL
);--> statement-breakpoint
-- in the row, compressed only past ~2 KB (a long description), out of line only if it must be
ALTER TABLE "event_search" ALTER COLUMN "lexemes" SET STORAGE MAIN;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_search_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'published' THEN
    INSERT INTO event_search (event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, lexemes)
    VALUES (NEW.id, NEW.created_at, NEW.title, NEW.start_date, NEW.ticket_price_min, NEW.city_id, NEW.category_id,
      strip(NEW.search_document))
    ON CONFLICT (event_id) DO UPDATE
      SET created_at = EXCLUDED.created_at, title = EXCLUDED.title, start_date = EXCLUDED.start_date,
        ticket_price_min = EXCLUDED.ticket_price_min, city_id = EXCLUDED.city_id, category_id = EXCLUDED.category_id, lexemes = EXCLUDED.lexemes;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM event_search WHERE event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_search_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_search;
  ELSE
    DELETE FROM event_search WHERE event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_search_ins AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION event_search_put();--> statement-breakpoint
-- only what the copy holds: most updates (a view count, a revision, a moderation note) skip it
CREATE TRIGGER events_search_upd AFTER UPDATE ON events FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.search_document IS DISTINCT FROM NEW.search_document
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.ticket_price_min IS DISTINCT FROM NEW.ticket_price_min
    OR OLD.city_id IS DISTINCT FROM NEW.city_id OR OLD.category_id IS DISTINCT FROM NEW.category_id)
  EXECUTE FUNCTION event_search_put();--> statement-breakpoint
CREATE TRIGGER events_search_del AFTER DELETE ON events FOR EACH ROW
  WHEN (OLD.status = 'published') EXECUTE FUNCTION event_search_drop();--> statement-breakpoint
CREATE TRIGGER events_search_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION event_search_drop();--> statement-breakpoint
INSERT INTO event_search (event_id, created_at, title, start_date, ticket_price_min, city_id, category_id, lexemes)
SELECT id, created_at, title, start_date, ticket_price_min, city_id, category_id, strip(search_document)
FROM events WHERE status = 'published'
ON CONFLICT (event_id) DO NOTHING;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_lexemes_idx" ON "event_search" USING gin ("lexemes") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_created_idx" ON "event_search" ("created_at", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_city_idx" ON "event_search" ("city_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_search_category_idx" ON "event_search" ("category_id");--> statement-breakpoint
ANALYZE "event_search";
