-- Every search word is a prefix ("konse" finds "konser"). In the GIN index of event_search a prefix
-- is a partial match: the index collects every entry at or after the prefix into one bitmap and
-- rechecks each row, where an exact lexeme reads its compressed posting list. At 100k events
-- (EXPLAIN ANALYZE, the service's generic plan, warm) the capped count and page of
-- `(nussantara:* | nusantara:*) & (anak:*)` took 13.5 ms, of the same lexemes exact 3.0 ms;
-- `(pendeek:* | pendek:*)` 7.0 -> 1.7 ms. This table holds the lexemes of the search copy and how
-- many of its rows hold each, so the service rewrites a prefix into the exact lexemes it stands
-- for (events/service.ts, prepareSearch): the same matches, found through posting lists. A prefix
-- that stands for many lexemes stays a prefix.
CREATE TABLE IF NOT EXISTS "search_lexemes" (
  "lexeme" text COLLATE "C" PRIMARY KEY,
  "events" integer NOT NULL
);--> statement-breakpoint
-- Counts what a row of event_search added and removed, in one statement in lexeme order, so two
-- writers lock shared lexemes (every event has "dan", "acara") in the same order and never deadlock.
-- When the set of lexemes changes (one no row held before, or the last row holding one left), it
-- announces `search:lexemes` (migration 0008's change keys): the service keeps each word's
-- rewrite until then, so a write that brings no new word leaves every rewrite cached.
CREATE OR REPLACE FUNCTION search_lexemes_put() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed text[] := '{}';
  added text[] := '{}';
  appeared bigint;
  vanished bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE search_lexemes;
    PERFORM notify_public_change(ARRAY['search:lexemes']);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN removed := tsvector_to_array(OLD.lexemes); END IF;
  IF TG_OP <> 'DELETE' THEN added := tsvector_to_array(NEW.lexemes); END IF;
  WITH counted AS (
    INSERT INTO search_lexemes AS s (lexeme, events)
    SELECT l, sum(d)::int FROM (
      SELECT l, 1 AS d FROM unnest(added) AS l UNION ALL SELECT l, -1 FROM unnest(removed) AS l
    ) c GROUP BY l HAVING sum(d) <> 0 ORDER BY l COLLATE "C"
    ON CONFLICT (lexeme) DO UPDATE SET events = s.events + EXCLUDED.events
    -- xmax is 0 on a row this statement inserted (not on one it updated)
    RETURNING s.xmax = 0 AS inserted
  )
  SELECT count(*) FILTER (WHERE inserted) INTO appeared FROM counted;
  DELETE FROM search_lexemes WHERE lexeme = ANY (removed) AND events <= 0;
  GET DIAGNOSTICS vanished = ROW_COUNT;
  -- once per transaction: its notifications all arrive after it commits, so one drops every
  -- rewrite it changed (a bulk statement would otherwise announce it once per row)
  IF (appeared > 0 OR vanished > 0)
    AND current_setting('app.search_lexemes_announced', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('app.search_lexemes_announced', txid_current()::text, true);
    PERFORM notify_public_change(ARRAY['search:lexemes']);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS event_search_lexemes_ins ON event_search;--> statement-breakpoint
CREATE TRIGGER event_search_lexemes_ins AFTER INSERT ON event_search FOR EACH ROW EXECUTE FUNCTION search_lexemes_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_search_lexemes_upd ON event_search;--> statement-breakpoint
CREATE TRIGGER event_search_lexemes_upd AFTER UPDATE ON event_search FOR EACH ROW
  WHEN (OLD.lexemes IS DISTINCT FROM NEW.lexemes) EXECUTE FUNCTION search_lexemes_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_search_lexemes_del ON event_search;--> statement-breakpoint
CREATE TRIGGER event_search_lexemes_del AFTER DELETE ON event_search FOR EACH ROW EXECUTE FUNCTION search_lexemes_put();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_search_lexemes_truncate ON event_search;--> statement-breakpoint
CREATE TRIGGER event_search_lexemes_truncate AFTER TRUNCATE ON event_search FOR EACH STATEMENT
  EXECUTE FUNCTION search_lexemes_put();--> statement-breakpoint
-- the table from the search copy (here, and after a bulk load with triggers off: bench/data.ts)
CREATE OR REPLACE FUNCTION search_lexemes_fill() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_lexemes;
  INSERT INTO search_lexemes (lexeme, events)
  SELECT l, count(*)::int FROM event_search, unnest(tsvector_to_array(lexemes)) AS l GROUP BY l;
$$;--> statement-breakpoint
SELECT search_lexemes_fill();--> statement-breakpoint
ANALYZE "search_lexemes";
