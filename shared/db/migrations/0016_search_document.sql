-- What an event search matches (issue 14): title (weight A); venue, city, province, category, tags
-- and organizer (B); short description and body (C). The text of the other tables is copied into
-- the event's own document by triggers, so a search stays one GIN lookup: an event's document is
-- recomputed when the event is written, when its tag links change, and when a city, category or
-- tag it uses is renamed.
ALTER TABLE "events" ADD COLUMN IF NOT EXISTS "search_document" tsvector NOT NULL DEFAULT ''::tsvector;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_search_document(e events) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('indonesian', immutable_unaccent(e.title)), 'A')
    || setweight(to_tsvector('indonesian', immutable_unaccent(concat_ws(' ',
         e.venue_name, ci.name, ci.province, ca.name, e.organizer_name,
         (SELECT string_agg(t.name, ' ') FROM event_tags et JOIN tags t ON t.id = et.tag_id WHERE et.event_id = e.id)))), 'B')
    || setweight(to_tsvector('indonesian', immutable_unaccent(e.short_description || ' ' || regexp_replace(e.description, '<[^>]*>', ' ', 'g'))), 'C')
  FROM (SELECT 1) AS one
  LEFT JOIN cities ci ON ci.id = e.city_id
  LEFT JOIN categories ca ON ca.id = e.category_id
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION events_set_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := event_search_document(NEW);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_search_document BEFORE INSERT OR UPDATE ON events FOR EACH ROW EXECUTE FUNCTION events_set_search_document();--> statement-breakpoint
-- a no-op update recomputes the document through the trigger above
CREATE OR REPLACE FUNCTION event_tags_refresh_documents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE events SET search_document = search_document WHERE id IN (SELECT DISTINCT event_id FROM old_rows);
  ELSE
    UPDATE events SET search_document = search_document WHERE id IN (SELECT DISTINCT event_id FROM new_rows);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER event_tags_documents_ins AFTER INSERT ON event_tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_tags_refresh_documents();--> statement-breakpoint
CREATE TRIGGER event_tags_documents_del AFTER DELETE ON event_tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_tags_refresh_documents();--> statement-breakpoint
CREATE OR REPLACE FUNCTION names_refresh_documents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'cities' THEN
    UPDATE events SET search_document = search_document WHERE city_id IN (SELECT id FROM new_rows);
  ELSIF TG_TABLE_NAME = 'categories' THEN
    UPDATE events SET search_document = search_document WHERE category_id IN (SELECT id FROM new_rows);
  ELSE
    UPDATE events SET search_document = search_document
    WHERE id IN (SELECT et.event_id FROM event_tags et WHERE et.tag_id IN (SELECT id FROM new_rows));
  END IF;
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows, regexp_split_to_table(immutable_unaccent(lower(new_rows.name)), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 2 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER cities_refresh_documents AFTER UPDATE ON cities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_refresh_documents();--> statement-breakpoint
CREATE TRIGGER categories_refresh_documents AFTER UPDATE ON categories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_refresh_documents();--> statement-breakpoint
CREATE TRIGGER tags_refresh_documents AFTER UPDATE ON tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_refresh_documents();--> statement-breakpoint
-- new cities, categories and tags bring their words to the typo dictionary (events do, 0007)
CREATE OR REPLACE FUNCTION names_add_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows, regexp_split_to_table(immutable_unaccent(lower(new_rows.name)), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 2 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER cities_add_search_words AFTER INSERT ON cities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_add_search_words();--> statement-breakpoint
CREATE TRIGGER categories_add_search_words AFTER INSERT ON categories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_add_search_words();--> statement-breakpoint
CREATE TRIGGER tags_add_search_words AFTER INSERT ON tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION names_add_search_words();--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT w FROM (
  SELECT name FROM cities UNION ALL SELECT province FROM cities UNION ALL SELECT name FROM categories
  UNION ALL SELECT name FROM tags UNION ALL SELECT venue_name FROM events
) names, regexp_split_to_table(immutable_unaccent(lower(names.name)), '[^[:alnum:]]+') AS w
WHERE length(w) BETWEEN 2 AND 40
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE events SET search_document = event_search_document(events);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_document_idx" ON "events" USING gin ("search_document");--> statement-breakpoint
-- Synonyms and common spellings, as data: every term of a group stands in for the others in a
-- search ("jogja" finds Yogyakarta). Edit with SQL or the admin API; no code change needed.
CREATE TABLE IF NOT EXISTS "search_synonyms" (
	"term" text NOT NULL,
	"group_name" text NOT NULL,
	PRIMARY KEY ("term", "group_name")
);--> statement-breakpoint
INSERT INTO search_synonyms (term, group_name) VALUES
  ('jogja', 'yogyakarta'), ('yogya', 'yogyakarta'), ('jogjakarta', 'yogyakarta'), ('yogyakarta', 'yogyakarta'), ('diy', 'yogyakarta'),
  ('jakarta', 'jakarta'), ('dki', 'jakarta'), ('jkt', 'jakarta'),
  ('bali', 'bali'), ('denpasar', 'bali'),
  ('konser', 'musik'), ('musik', 'musik'), ('music', 'musik'), ('concert', 'musik'),
  ('lari', 'lari'), ('run', 'lari'), ('running', 'lari'), ('marathon', 'lari'), ('maraton', 'lari'),
  ('pameran', 'pameran'), ('expo', 'pameran'), ('exhibition', 'pameran'),
  ('gratis', 'gratis'), ('free', 'gratis')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- suggestions: titles by their first letters, in byte order (not partial: a partial index on
-- published rows would tempt the planner for every list)
CREATE INDEX IF NOT EXISTS "events_title_prefix_idx" ON "events" ((immutable_unaccent(lower(title)) COLLATE "C"));
--> statement-breakpoint
-- an edited synonym changes search answers: cached ones are dropped
CREATE TRIGGER search_synonyms_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_synonyms FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();
