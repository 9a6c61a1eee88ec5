-- The change keys of a search (events/service.ts, listDeps; shared/db/src/search.ts, wordTerms).
-- A search by words alone depended on `list:all`, which every approval announces: under steady
-- writes no search stayed cached. What a search answers is decided by the events holding a lexeme
-- that one of its terms (its words, their typo stand-ins and synonyms) matches exactly or as a
-- prefix, so a write now also announces, for each lexeme of an event row it changes (before and
-- after, while the row is public),
--   w:<the lexeme's first 3 letters>
-- and a search of terms 3 letters or longer depends on the keys of their first 3 letters: an
-- event it matches, before or after, announces one of them (a term that is a prefix of a lexeme
-- shares its first 3 letters). The same keys hold a word's rewrite into the lexemes it stands for
-- (migration 0027): a lexeme under it appears or vanishes only through such a row.
--
-- Typo stand-ins come from the dictionary (search_words, 0007), which every submission extends,
-- already while it is pending: a new word is announced as
--   tri:<each of its trigrams>  (pg_trgm's show_trgm)
-- and a search depends on the trigrams of its words, since a word similar enough to stand in
-- for another shares a trigram with it. A search term of 1-2 letters keeps `list:all`.
CREATE OR REPLACE FUNCTION search_keys(event_status text, document tsvector) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN event_status IN ('pending', 'draft', 'rejected') THEN ARRAY[]::text[] ELSE
    coalesce((SELECT array_agg(DISTINCT 'w:' || left(l, 3)) FROM unnest(tsvector_to_array(document)) AS l), ARRAY[]::text[])
  END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_change_keys(e events, counted boolean) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT public_event_keys(e.id, e.slug, e.status::text, e.city_id, e.category_id)
    || related_keys(e.id, e.status::text, e.end_date, e.city_id, e.category_id, counted)
    || search_keys(e.status::text, e.search_document)
$$;--> statement-breakpoint
-- A payload over NOTIFY's limit (8000 bytes) first gives up the word and trigram keys for the one
-- key every search also depends on, `search:all` (an event with a long description, a statement
-- touching many events), and only then every key (the version alone: anything may have changed).
CREATE OR REPLACE FUNCTION notify_public_change(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next_version bigint;
  payload text;
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE scope = 'public' RETURNING version INTO next_version;
  payload := next_version::text;
  IF keys IS NOT NULL THEN
    payload := json_build_object('v', next_version, 'k', keys)::text;
    IF octet_length(payload) > 7000 THEN
      payload := json_build_object('v', next_version, 'k',
        array(SELECT k FROM unnest(keys) AS k WHERE k NOT LIKE 'w:%' AND k NOT LIKE 'tri:%') || ARRAY['search:all'])::text;
    END IF;
    IF octet_length(payload) > 7000 THEN
      payload := next_version::text;
    END IF;
  END IF;
  PERFORM pg_notify('data_version', payload);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_words_public_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys text[];
BEGIN
  SELECT array_agg(DISTINCT 'tri:' || t) INTO keys FROM new_rows n, unnest(show_trgm(n.word)) AS t;
  IF keys IS NOT NULL THEN
    PERFORM notify_public_change(keys);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS search_words_public_change ON search_words;--> statement-breakpoint
CREATE TRIGGER search_words_public_change AFTER INSERT ON search_words REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_public_change();
--> statement-breakpoint
-- `search:lexemes` (0027) held each word's rewrite until any lexeme appeared or vanished; the word
-- keys above hold it now, so the count no longer announces anything (a version bump per new word).
CREATE OR REPLACE FUNCTION search_lexemes_put() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed text[] := '{}';
  added text[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE search_lexemes;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN removed := tsvector_to_array(OLD.lexemes); END IF;
  IF TG_OP <> 'DELETE' THEN added := tsvector_to_array(NEW.lexemes); END IF;
  -- in lexeme order, so two writers lock shared lexemes in the same order and never deadlock
  INSERT INTO search_lexemes AS s (lexeme, events)
  SELECT l, sum(d)::int FROM (
    SELECT l, 1 AS d FROM unnest(added) AS l UNION ALL SELECT l, -1 FROM unnest(removed) AS l
  ) c GROUP BY l HAVING sum(d) <> 0 ORDER BY l COLLATE "C"
  ON CONFLICT (lexeme) DO UPDATE SET events = s.events + EXCLUDED.events;
  DELETE FROM search_lexemes WHERE lexeme = ANY (removed) AND events <= 0;
  RETURN NULL;
END
$$;
