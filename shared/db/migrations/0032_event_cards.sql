-- The list card of each published event, kept as its JSON text (issue 11). A list page's and a
-- detail's related cards were written from events joined to categories and cities, one random
-- heap access each into a table of ~4 KB rows (description, search vector): at 100k events the
-- heap is 387 MB against 128 MB of shared buffers, so most of those reads came from the OS and
-- were most of PostgreSQL's CPU under the bench's lists (71-78 us a request; 31-33 from this
-- narrow table, which fits in the buffers: 69 MB). The JSON is the service's card
-- (CARD_FIELDS in services/catalog/src/events/cards.ts; a test compares every row with it),
-- kept by row triggers on events, categories and cities.
CREATE TABLE IF NOT EXISTS "event_cards" (
  "event_id" text PRIMARY KEY NOT NULL,
  "card" text NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_card_of(text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT (select row_to_json(j)::text from (select "events"."id" as "id", "events"."title" as "title", "events"."slug" as "slug", "events"."short_description" as "short_description", "events"."poster_url" as "poster_url", "events"."start_date" as "start_date", "events"."end_date" as "end_date", left("events"."start_time"::text, 5) as "start_time", "events"."event_type" as "event_type", "events"."venue_name" as "venue_name", "cities"."name" as "city_name", "cities"."slug" as "city_slug", "categories"."name" as "category_name", "categories"."slug" as "category_slug", "events"."ticket_price_min"::float8 as "ticket_price_min", "events"."ticket_price_max"::float8 as "ticket_price_max", case when "events"."is_free" then 1 else 0 end as "is_free", "events"."organizer_name" as "organizer_name") j)
  FROM events INNER JOIN categories ON categories.id = events.category_id LEFT JOIN cities ON cities.id = events.city_id
  WHERE events.id = $1
$$;--> statement-breakpoint
-- an event's card while it is published (none otherwise)
CREATE OR REPLACE FUNCTION event_cards_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_cards;
  ELSIF TG_OP <> 'DELETE' AND NEW.status = 'published' THEN
    INSERT INTO event_cards (event_id, card) VALUES (NEW.id, event_card_of(NEW.id))
    ON CONFLICT (event_id) DO UPDATE SET card = EXCLUDED.card;
  ELSE
    DELETE FROM event_cards WHERE event_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- a category or city renamed: the cards of its published events
CREATE OR REPLACE FUNCTION event_cards_place() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE event_cards c SET card = event_card_of(c.event_id)
  FROM events e
  WHERE e.id = c.event_id
    AND (CASE WHEN TG_TABLE_NAME = 'categories' THEN e.category_id ELSE e.city_id END) = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_cards_ins ON events;--> statement-breakpoint
CREATE TRIGGER events_cards_ins AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION event_cards_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_cards_upd ON events;--> statement-breakpoint
CREATE TRIGGER events_cards_upd AFTER UPDATE ON events FOR EACH ROW
  WHEN ((OLD.status = 'published' OR NEW.status = 'published')
    AND (OLD.status IS DISTINCT FROM NEW.status
      OR (OLD.title, OLD.slug, OLD.short_description, OLD.poster_url, OLD.start_date, OLD.end_date, OLD.start_time,
          OLD.event_type, OLD.venue_name, OLD.city_id, OLD.category_id, OLD.ticket_price_min, OLD.ticket_price_max,
          OLD.is_free, OLD.organizer_name)
        IS DISTINCT FROM (NEW.title, NEW.slug, NEW.short_description, NEW.poster_url, NEW.start_date, NEW.end_date,
          NEW.start_time, NEW.event_type, NEW.venue_name, NEW.city_id, NEW.category_id, NEW.ticket_price_min,
          NEW.ticket_price_max, NEW.is_free, NEW.organizer_name)))
  EXECUTE FUNCTION event_cards_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_cards_del ON events;--> statement-breakpoint
CREATE TRIGGER events_cards_del AFTER DELETE ON events FOR EACH ROW
  WHEN (OLD.status = 'published') EXECUTE FUNCTION event_cards_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_cards_truncate ON events;--> statement-breakpoint
CREATE TRIGGER events_cards_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT
  EXECUTE FUNCTION event_cards_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS categories_cards_upd ON categories;--> statement-breakpoint
CREATE TRIGGER categories_cards_upd AFTER UPDATE ON categories FOR EACH ROW
  WHEN ((OLD.name, OLD.slug) IS DISTINCT FROM (NEW.name, NEW.slug)) EXECUTE FUNCTION event_cards_place();--> statement-breakpoint
DROP TRIGGER IF EXISTS cities_cards_upd ON cities;--> statement-breakpoint
CREATE TRIGGER cities_cards_upd AFTER UPDATE ON cities FOR EACH ROW
  WHEN ((OLD.name, OLD.slug) IS DISTINCT FROM (NEW.name, NEW.slug)) EXECUTE FUNCTION event_cards_place();--> statement-breakpoint
-- the table from scratch, into an empty one (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION event_cards_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_cards (event_id, card)
  SELECT id, event_card_of(id) FROM events WHERE status = 'published'
$$;--> statement-breakpoint
SELECT event_cards_fill();
