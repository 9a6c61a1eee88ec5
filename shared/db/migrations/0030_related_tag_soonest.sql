-- A tag's branch of `related` (events/related.ts) was its 7 most recently added upcoming events, so
-- every approval of a tagged event was first in each of its tags' branches and dropped the cached
-- detail of every event sharing one of those tags (the bench's writer draws from the 300 most used
-- tags: ~1,100 details an approval at 100k events). A tag's branch is now, as the category's and
-- the city's, its upcoming events ending soonest (end_date, id): an approval of an event months
-- ahead lands far down it. event_tag_order (migration 0026) carries the end date and an index per
-- tag in that order, which the branch reads and the trigger counts with (related_keys, 0028).
-- The copy is derived: emptied and filled again below (an UPDATE of every row would leave it and
-- its five indexes twice their size).
TRUNCATE "event_tag_order";--> statement-breakpoint
ALTER TABLE "event_tag_order" ADD COLUMN IF NOT EXISTS "end_date" date NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_tag_order_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_tag_order;
  ELSIF NEW.status = 'published' THEN
    INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, end_date, ticket_price_min, title)
    SELECT et.tag_id, NEW.id, NEW.created_at, NEW.start_date, NEW.end_date, NEW.ticket_price_min, NEW.title
    FROM event_tags et WHERE et.event_id = NEW.id
    ON CONFLICT (tag_id, event_id) DO UPDATE
      SET created_at = EXCLUDED.created_at, start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date,
        ticket_price_min = EXCLUDED.ticket_price_min, title = EXCLUDED.title;
  ELSE
    -- by primary key: the event's tags say which rows it has
    DELETE FROM event_tag_order o USING event_tags et
    WHERE et.event_id = OLD.id AND o.tag_id = et.tag_id AND o.event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
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
    INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, end_date, ticket_price_min, title)
    SELECT NEW.tag_id, e.id, e.created_at, e.start_date, e.end_date, e.ticket_price_min, e.title
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
      OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.end_date IS DISTINCT FROM NEW.end_date
      OR OLD.ticket_price_min IS DISTINCT FROM NEW.ticket_price_min OR OLD.title IS DISTINCT FROM NEW.title))
  EXECUTE FUNCTION event_tag_order_put();--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_tag_order_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_tag_order (tag_id, event_id, created_at, start_date, end_date, ticket_price_min, title)
  SELECT et.tag_id, e.id, e.created_at, e.start_date, e.end_date, e.ticket_price_min, e.title
  FROM event_tags et JOIN events e ON e.id = et.event_id WHERE e.status = 'published'
$$;--> statement-breakpoint
SELECT event_tag_order_fill();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "event_tag_order_end_idx" ON "event_tag_order" ("tag_id", "end_date", "event_id");--> statement-breakpoint
-- a tag's branch is counted as the category's: events ending sooner (event_tag_order holds only
-- published events)
CREATE OR REPLACE FUNCTION related_keys(event_id text, event_status text, event_end date, event_city text, event_category text, counted boolean)
RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  ahead_from date := (now() AT TIME ZONE 'Asia/Jayapura')::date + 1;
  category_slug text;
  city_slug text;
  tag record;
  keys text[] := ARRAY[]::text[];
BEGIN
  IF event_status IN ('pending', 'draft', 'rejected') OR event_end < (now() AT TIME ZONE 'Asia/Jakarta')::date - 1 THEN
    RETURN keys;
  END IF;
  SELECT slug INTO category_slug FROM categories WHERE id = event_category;
  SELECT slug INTO city_slug FROM cities WHERE id = event_city;
  IF category_slug IS NOT NULL AND (NOT counted OR (SELECT count(*) FROM (
      SELECT 1 FROM events e WHERE e.category_id = event_category AND e.status = 'published'
        AND e.end_date >= ahead_from AND (e.end_date, e.id) < (event_end, event_id) AND e.id <> event_id LIMIT 7) ahead) < 7) THEN
    keys := keys || ('rel:cat:' || category_slug);
  END IF;
  IF city_slug IS NOT NULL AND (NOT counted OR (SELECT count(*) FROM (
      SELECT 1 FROM events e WHERE e.city_id = event_city AND e.status = 'published'
        AND e.end_date >= ahead_from AND (e.end_date, e.id) < (event_end, event_id) AND e.id <> event_id LIMIT 7) ahead) < 7) THEN
    keys := keys || ('rel:city:' || city_slug);
  END IF;
  IF city_slug IS NOT NULL AND category_slug IS NOT NULL AND (NOT counted OR (SELECT count(*) FROM (
      SELECT 1 FROM events e WHERE e.city_id = event_city AND e.category_id = event_category AND e.status = 'published'
        AND e.end_date >= ahead_from AND (e.end_date, e.id) < (event_end, event_id) AND e.id <> event_id LIMIT 7) ahead) < 7) THEN
    keys := keys || ('rel:citycat:' || city_slug || ':' || category_slug);
  END IF;
  FOR tag IN SELECT t.id, t.slug FROM event_tags et JOIN tags t ON t.id = et.tag_id WHERE et.event_id = related_keys.event_id LOOP
    IF NOT counted OR (SELECT count(*) FROM (
        SELECT 1 FROM event_tag_order o WHERE o.tag_id = tag.id
          AND o.end_date >= ahead_from AND (o.end_date, o.event_id) < (event_end, related_keys.event_id)
          AND o.event_id <> related_keys.event_id LIMIT 7) ahead) < 7 THEN
      keys := keys || ('rel:tag:' || tag.slug);
    END IF;
  END LOOP;
  RETURN keys;
END
$$;--> statement-breakpoint
ANALYZE "event_tag_order";
