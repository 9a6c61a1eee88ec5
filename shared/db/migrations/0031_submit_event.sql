-- A submission in ONE statement (catalog submissions/service.ts): its checks, the event with a
-- free slug, its tag links, and the data version they leave, by a function the service calls
-- outside a transaction (or inside one when the submission creates tags). Until now these were
-- the statements of a transaction that held the submissions' advisory lock and, from its first
-- write, the data version's row lock across the service's round trips: under a read load each
-- waits for a turn of the service's event loop (tens of ms), so submissions queued on the
-- advisory lock and on the version's row (bench mix with 5 writes/s: submission p99 0.6-1.5 s, of
-- which up to 0.4 s waiting for the lock). Here both locks are held only while PostgreSQL runs it.

-- `base`, or `base-N` with N one above the highest suffix in use in `col` of `tbl`: only the
-- slugs sharing this base are read, `base` itself and the `base-...` range in byte order (an index
-- on slug COLLATE "C" where the table is large, migration 0007), never every slug. The one
-- description of a free slug: the services' freeSlug (shared/db/src/slug.ts) calls it too.
CREATE OR REPLACE FUNCTION free_slug(tbl regclass, col name, base text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  taken boolean;
  highest bigint;
BEGIN
  EXECUTE format(
    $q$SELECT coalesce(bool_or(%2$I = $1), false),
      max(CASE WHEN substr(%2$I, length($1) + 2) ~ '^[0-9]{1,9}$' THEN substr(%2$I, length($1) + 2)::bigint END)
    FROM %1$s WHERE %2$I = $1 OR ((%2$I COLLATE "C") > ($1 || '-') AND (%2$I COLLATE "C") < ($1 || '.'))$q$,
    tbl, col) INTO taken, highest USING base;
  IF NOT taken THEN
    RETURN base;
  END IF;
  RETURN base || '-' || (greatest(coalesce(highest, 1), 1) + 1);
END
$$;--> statement-breakpoint

-- `fields`: the events columns the submission sets, by column name, without the slug (the keys
-- name the columns: the service builds them from the schema, so a column added there needs
-- nothing here). Writes nothing, and says why, when the category is missing or inactive, the city
-- is given and missing (the checks of referenceErrors, shared/kit/src/event-input.ts, which
-- words the errors from what this returns), or a tag name is not a known tag (the service then
-- creates the tags in a transaction and calls it again). Otherwise inserts the event under the
-- first free slug of `slug_base` (a slug taken meanwhile by an editor inserts nothing, and the
-- next free one is tried; after 8 a random suffix), links the tags, and returns the new id and
-- slug with the data version after the writes, read by a later statement, so after their
-- triggers (the writer waits for every replica to hold that version).
CREATE OR REPLACE FUNCTION submit_event(fields jsonb, slug_base text, tag_names text[], lock_key bigint)
RETURNS TABLE (
  inserted_id text, inserted_slug text, version_after bigint,
  category_active boolean, city_found boolean, tags_known boolean
) LANGUAGE plpgsql AS $$
DECLARE
  columns text;
  tag_ids text[];
BEGIN
  SELECT c.is_active INTO category_active FROM categories c WHERE c.id = fields ->> 'category_id';
  city_found := EXISTS (SELECT 1 FROM cities c WHERE c.id = coalesce(fields ->> 'city_id', ''));
  SELECT array_agg(t.id), count(*) = (SELECT count(DISTINCT lower(n)) FROM unnest(tag_names) n)
    INTO tag_ids, tags_known
    FROM tags t WHERE lower(t.name) IN (SELECT lower(n) FROM unnest(tag_names) n);
  IF category_active IS NOT TRUE OR (fields ->> 'city_id' IS NOT NULL AND NOT city_found) OR NOT tags_known THEN
    RETURN NEXT;
    RETURN;
  END IF;
  -- submissions one at a time, as before: one that held the version's row lock while it waited
  -- for a word another had just added to the search dictionary (that one waiting for the lock)
  -- deadlocked
  PERFORM pg_advisory_xact_lock(lock_key);
  SELECT string_agg(format('%I', key), ', ') INTO columns FROM jsonb_object_keys(fields || '{"slug": ""}') AS key;
  FOR attempt IN 1..10 LOOP
    inserted_slug := CASE WHEN attempt <= 8 THEN free_slug('events', 'slug', slug_base)
      ELSE slug_base || '-' || left(replace(gen_random_uuid()::text, '-', ''), 8) END;
    EXECUTE format(
      'INSERT INTO events (%1$s) SELECT %1$s FROM jsonb_populate_record(NULL::events, $1) ON CONFLICT (slug) DO NOTHING RETURNING id',
      columns) INTO inserted_id USING fields || jsonb_build_object('slug', inserted_slug);
    EXIT WHEN inserted_id IS NOT NULL;
  END LOOP;
  IF inserted_id IS NULL THEN
    RAISE EXCEPTION 'no free slug for "%"', slug_base;
  END IF;
  IF cardinality(tag_ids) > 0 THEN
    INSERT INTO event_tags (event_id, tag_id) SELECT inserted_id, unnest(tag_ids) ON CONFLICT DO NOTHING;
  END IF;
  SELECT v.version INTO version_after FROM data_versions v WHERE v.scope = 'public';
  RETURN NEXT;
END
$$;
