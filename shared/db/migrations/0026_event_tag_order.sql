-- Lists by tag (issue 11). A tag's page read every event carrying the tag, then sorted them:
-- event_tags has no list order, so `tag=jazz&page=3` (9,109 events at 100k) probed events 9,109
-- times for the count (62 ms) and again to sort the page (147 ms; EXPLAIN), ten times that at 1M.
-- This table holds one row per tag of each published event with the keys of every list order,
-- kept by row triggers on events and event_tags, indexed per tag and order as event_search is per
-- city and category (migration 0023): a page is 12 entries of one index, then those events by id.
CREATE TABLE IF NOT EXISTS "event_tag_order" (
  "tag_id" text NOT NULL,
  "event_id" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "start_date" date NOT NULL,
  "ticket_price_min" numeric(14, 2) NOT NULL,
  "title" text NOT NULL
);--> statement-breakpoint
-- an event's rows, one per tag it carries, when it is published (none otherwise)
CREATE OR REPLACE FUNCTION event_tag_order_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_tag_order;
  ELSIF NEW.status = 'published' THEN
    INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, ticket_price_min, title)
    SELECT et.tag_id, NEW.id, NEW.created_at, NEW.start_date, NEW.ticket_price_min, NEW.title
    FROM event_tags et WHERE et.event_id = NEW.id
    ON CONFLICT (tag_id, event_id) DO UPDATE
      SET created_at = EXCLUDED.created_at, start_date = EXCLUDED.start_date,
        ticket_price_min = EXCLUDED.ticket_price_min, title = EXCLUDED.title;
  ELSE
    -- by primary key: the event's tags say which rows it has
    DELETE FROM event_tag_order o USING event_tags et
    WHERE et.event_id = OLD.id AND o.tag_id = et.tag_id AND o.event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- a tag link added or removed (a deleted event's links go by its cascade, and take its rows along)
CREATE OR REPLACE FUNCTION event_tag_order_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_tag_order;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM event_tag_order WHERE tag_id = OLD.tag_id AND event_id = OLD.event_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, ticket_price_min, title)
    SELECT NEW.tag_id, e.id, e.created_at, e.start_date, e.ticket_price_min, e.title
    FROM events e WHERE e.id = NEW.event_id AND e.status = 'published'
    ON CONFLICT (tag_id, event_id) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_tag_order_upd ON events;--> statement-breakpoint
CREATE TRIGGER events_tag_order_upd AFTER UPDATE ON events FOR EACH ROW
  WHEN ((OLD.status = 'published' OR NEW.status = 'published')
    AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at
      OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.ticket_price_min IS DISTINCT FROM NEW.ticket_price_min
      OR OLD.title IS DISTINCT FROM NEW.title))
  EXECUTE FUNCTION event_tag_order_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_tag_order_ins ON events;--> statement-breakpoint
CREATE TRIGGER events_tag_order_ins AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION event_tag_order_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_tag_order_truncate ON events;--> statement-breakpoint
CREATE TRIGGER events_tag_order_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT
  EXECUTE FUNCTION event_tag_order_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_tags_order_change ON event_tags;--> statement-breakpoint
CREATE TRIGGER event_tags_order_change AFTER INSERT OR UPDATE OR DELETE ON event_tags FOR EACH ROW
  EXECUTE FUNCTION event_tag_order_link();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_tags_order_truncate ON event_tags;--> statement-breakpoint
CREATE TRIGGER event_tags_order_truncate AFTER TRUNCATE ON event_tags FOR EACH STATEMENT
  EXECUTE FUNCTION event_tag_order_link();--> statement-breakpoint
-- the table from scratch, into an empty one (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION event_tag_order_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, ticket_price_min, title)
  SELECT et.tag_id, e.id, e.created_at, e.start_date, e.ticket_price_min, e.title
  FROM event_tags et JOIN events e ON e.id = et.event_id WHERE e.status = 'published'
$$;--> statement-breakpoint
SELECT event_tag_order_fill();--> statement-breakpoint
-- the key after the fill: built from sorted rows it is a third smaller than one filled in random order
ALTER TABLE "event_tag_order" ADD PRIMARY KEY ("tag_id", "event_id");--> statement-breakpoint
-- every list order within a tag (descending orders read them backwards)
CREATE INDEX IF NOT EXISTS "event_tag_order_created_idx" ON "event_tag_order" ("tag_id", "created_at", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_tag_order_start_idx" ON "event_tag_order" ("tag_id", "start_date", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_tag_order_price_idx" ON "event_tag_order" ("tag_id", "ticket_price_min", "event_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_tag_order_title_idx" ON "event_tag_order" ("tag_id", "title", "event_id");--> statement-breakpoint
ANALYZE "event_tag_order";
