-- The change keys of `related` (events/related.ts and the list index): an event detail lists up to
-- 4 events drawn from its branches, the first 7 upcoming events (CANDIDATES + 1) of its category,
-- its city + category and its city by (end_date, id), and of each of its tags by newest id. Until
-- now a detail depended on the list keys of its category, city and tags, so every approval dropped
-- the cached details of a thirtieth of the catalogue although it mostly lands far down those
-- branches and changes none of them. A write now also announces
--   rel:cat:<category>, rel:city:<city>, rel:citycat:<city>:<category>, rel:tag:<tag>
-- only for the branches an event row (before or after the write) may be among the first 7 of.
--
-- "May be": the count of events ahead of the row only counts events ending after tomorrow in the
-- easternmost zone (WIT), fewer than any reader's branch holds, so an event within a reader's
-- first 7 is always announced (a day's margin for clocks too); a row ended before yesterday in
-- the westernmost zone (WIB) is in no branch. A statement touching several events, and any change
-- of tag links, announce every branch of the rows without counting.
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
        SELECT 1 FROM event_tags et JOIN events e ON e.id = et.event_id
        WHERE et.tag_id = tag.id AND et.event_id > related_keys.event_id AND e.status = 'published' AND e.end_date >= ahead_from
        LIMIT 7) ahead) < 7 THEN
      keys := keys || ('rel:tag:' || tag.slug);
    END IF;
  END LOOP;
  RETURN keys;
END
$$;--> statement-breakpoint
-- Every key a row of events announces (migration 0008's and the related ones above).
CREATE OR REPLACE FUNCTION event_change_keys(e events, counted boolean) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT public_event_keys(e.id, e.slug, e.status::text, e.city_id, e.category_id)
    || related_keys(e.id, e.status::text, e.end_date, e.city_id, e.category_id, counted)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION events_public_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys text[];
  touched bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO touched FROM new_rows;
    IF touched <= 50 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM new_rows n,
        unnest(event_change_keys(n, touched = 1)) AS k;
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT count(*) INTO touched FROM new_rows;
    IF touched <= 50 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM (
        SELECT unnest(event_change_keys(n, touched = 1)) AS k FROM new_rows n
        UNION ALL
        SELECT unnest(event_change_keys(o, touched = 1)) FROM old_rows o
      ) s;
    END IF;
  ELSE
    SELECT count(*) INTO touched FROM old_rows;
    IF touched <= 50 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM old_rows o,
        unnest(event_change_keys(o, touched = 1)) AS k;
    END IF;
  END IF;
  IF touched > 50 THEN
    PERFORM notify_public_change(NULL);
  ELSE
    PERFORM notify_public_change(coalesce(keys, ARRAY[]::text[]) || ARRAY['stats']);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_tags_public_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys text[];
  touched bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO touched FROM old_rows;
    IF touched <= 200 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM old_rows l
        JOIN events e ON e.id = l.event_id AND e.status::text NOT IN ('pending', 'draft', 'rejected')
        JOIN tags t ON t.id = l.tag_id,
        unnest(ARRAY['event:' || e.id, 'event:' || e.slug, 'list:tag:' || t.slug, 'rel:tag:' || t.slug, 'counts']) AS k;
    END IF;
  ELSE
    SELECT count(*) INTO touched FROM new_rows;
    IF touched <= 200 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM new_rows l
        JOIN events e ON e.id = l.event_id AND e.status::text NOT IN ('pending', 'draft', 'rejected')
        JOIN tags t ON t.id = l.tag_id,
        unnest(ARRAY['event:' || e.id, 'event:' || e.slug, 'list:tag:' || t.slug, 'rel:tag:' || t.slug, 'counts']) AS k;
    END IF;
  END IF;
  IF touched > 200 THEN
    PERFORM notify_public_change(NULL);
  ELSE
    PERFORM notify_public_change(coalesce(keys, ARRAY[]::text[]));
  END IF;
  RETURN NULL;
END
$$;
