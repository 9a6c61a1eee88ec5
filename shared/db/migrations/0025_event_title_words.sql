-- As-you-type suggestions (catalog search/service.ts) find published events by a word of their
-- title that starts with what was typed. They read it from the title lexemes of the full-text
-- index: a GIN prefix scan whose cost grows with every event holding such a word anywhere in its
-- document, and for a prefix common outside titles the planner, expecting many matches, read the
-- whole events table ('ter': 191 ms at 100k events, EXPLAIN; 130-170 ms per prefix at 1M).
-- This table holds each word of each published title once, as the suggestions compare it
-- (unaccented, lower case, split at anything but letters and digits): a prefix is one range of its
-- primary key, of which a suggestion reads a bounded number of entries at any catalogue size.
CREATE TABLE IF NOT EXISTS "event_title_words" (
  "word" text COLLATE "C" NOT NULL,
  "event_id" text NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION title_words(title text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w), '{}')
  FROM regexp_split_to_table(immutable_unaccent(lower(title)), '[^[:alnum:]]+') AS w
  WHERE w <> ''
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_title_words_put() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE event_title_words;
    RETURN NULL;
  END IF;
  -- by the old title's words: the primary key finds them, no index on event_id is needed
  IF TG_OP <> 'INSERT' AND OLD.status = 'published' THEN
    DELETE FROM event_title_words WHERE word = ANY (title_words(OLD.title)) AND event_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'published' THEN
    INSERT INTO event_title_words (word, event_id) SELECT unnest(title_words(NEW.title)), NEW.id ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_title_words_ins ON events;--> statement-breakpoint
CREATE TRIGGER events_title_words_ins AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.status = 'published') EXECUTE FUNCTION event_title_words_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_title_words_upd ON events;--> statement-breakpoint
CREATE TRIGGER events_title_words_upd AFTER UPDATE ON events FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.title IS DISTINCT FROM NEW.title)
  EXECUTE FUNCTION event_title_words_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_title_words_del ON events;--> statement-breakpoint
CREATE TRIGGER events_title_words_del AFTER DELETE ON events FOR EACH ROW
  WHEN (OLD.status = 'published') EXECUTE FUNCTION event_title_words_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_title_words_truncate ON events;--> statement-breakpoint
CREATE TRIGGER events_title_words_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT
  EXECUTE FUNCTION event_title_words_put();--> statement-breakpoint
-- the table from scratch, into an empty one (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION event_title_words_fill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_title_words (word, event_id)
  SELECT w, e.id FROM events e, unnest(title_words(e.title)) AS w WHERE e.status = 'published'
$$;--> statement-breakpoint
SELECT event_title_words_fill();--> statement-breakpoint
-- the key after the fill: built from sorted rows it is a third smaller than one filled in random order
ALTER TABLE "event_title_words" ADD PRIMARY KEY ("word", "event_id");--> statement-breakpoint
ANALYZE "event_title_words";
