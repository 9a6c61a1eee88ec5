-- Finer invalidation: a write tells the cache replicas WHAT it changed, not only that something
-- changed. The NOTIFY payload on 'data_version' becomes {"v": <version>, "k": [<keys>]}; a bare
-- version (the old payload, still sent by tables without finer keys and for large statements)
-- still means "anything may have changed". Cached answers declare the keys they depend on:
--   event:<id or slug>      the detail of that event (a 404 for a slug too)
--   list:city:<slug>, list:cat:<slug>, list:tag:<slug>
--                           lists filtered by that city / category / tag, and details whose
--                           related events come from it
--   list:all                lists without such a filter (and searches)
--   counts                  event counts (categories, cities, tags), stats
--   stats                   GET /api/stats (total_events counts every status)
--   news                    the news answers
-- A pending submission changes only `stats`; an approval changes one event, the lists and counts
-- it belongs to and stats, not the detail pages of every other event.
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
      payload := next_version::text;
    END IF;
  END IF;
  PERFORM pg_notify('data_version', payload);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_public_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_public_change(NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The keys of one event row as the public sees it: nothing while it is not public (a status
-- added later counts as public, to stay on the safe side).
CREATE OR REPLACE FUNCTION public_event_keys(event_id text, event_slug text, event_status text, event_city text, event_category text)
RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN event_status IN ('pending', 'draft', 'rejected') THEN ARRAY[]::text[] ELSE
    ARRAY['event:' || event_id, 'event:' || event_slug, 'list:all', 'counts']
    || coalesce((SELECT ARRAY['list:city:' || slug] FROM cities WHERE id = event_city), ARRAY[]::text[])
    || coalesce((SELECT ARRAY['list:cat:' || slug] FROM categories WHERE id = event_category), ARRAY[]::text[])
    || coalesce((SELECT array_agg('list:tag:' || t.slug) FROM event_tags et JOIN tags t ON t.id = et.tag_id WHERE et.event_id = public_event_keys.event_id), ARRAY[]::text[])
  END
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
        unnest(public_event_keys(n.id, n.slug, n.status::text, n.city_id, n.category_id)) AS k;
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT count(*) INTO touched FROM new_rows;
    IF touched <= 50 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM (
        SELECT unnest(public_event_keys(n.id, n.slug, n.status::text, n.city_id, n.category_id)) AS k FROM new_rows n
        UNION ALL
        SELECT unnest(public_event_keys(o.id, o.slug, o.status::text, o.city_id, o.category_id)) FROM old_rows o
      ) s;
    END IF;
  ELSE
    SELECT count(*) INTO touched FROM old_rows;
    IF touched <= 50 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM old_rows o,
        unnest(public_event_keys(o.id, o.slug, o.status::text, o.city_id, o.category_id)) AS k;
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
        unnest(ARRAY['event:' || e.id, 'event:' || e.slug, 'list:tag:' || t.slug, 'counts']) AS k;
    END IF;
  ELSE
    SELECT count(*) INTO touched FROM new_rows;
    IF touched <= 200 THEN
      SELECT array_agg(DISTINCT k) INTO keys FROM new_rows l
        JOIN events e ON e.id = l.event_id AND e.status::text NOT IN ('pending', 'draft', 'rejected')
        JOIN tags t ON t.id = l.tag_id,
        unnest(ARRAY['event:' || e.id, 'event:' || e.slug, 'list:tag:' || t.slug, 'counts']) AS k;
    END IF;
  END IF;
  IF touched > 200 THEN
    PERFORM notify_public_change(NULL);
  ELSE
    PERFORM notify_public_change(coalesce(keys, ARRAY[]::text[]));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- a new tag is invisible until a public event links it (that link notifies list:tag:<slug>)
CREATE OR REPLACE FUNCTION tags_insert_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_public_change(ARRAY[]::text[]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION news_public_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_public_change(ARRAY['news', 'stats']);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_bump_public_version ON events;--> statement-breakpoint
CREATE TRIGGER events_change_ins AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_public_change();--> statement-breakpoint
CREATE TRIGGER events_change_upd AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_public_change();--> statement-breakpoint
CREATE TRIGGER events_change_del AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_public_change();--> statement-breakpoint
CREATE TRIGGER events_change_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
DROP TRIGGER IF EXISTS event_tags_bump_public_version ON event_tags;--> statement-breakpoint
CREATE TRIGGER event_tags_change_ins AFTER INSERT ON event_tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_tags_public_change();--> statement-breakpoint
CREATE TRIGGER event_tags_change_del AFTER DELETE ON event_tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_tags_public_change();--> statement-breakpoint
CREATE TRIGGER event_tags_change_other AFTER UPDATE OR TRUNCATE ON event_tags FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
DROP TRIGGER IF EXISTS tags_bump_public_version ON tags;--> statement-breakpoint
CREATE TRIGGER tags_change_ins AFTER INSERT ON tags FOR EACH STATEMENT EXECUTE FUNCTION tags_insert_change();--> statement-breakpoint
CREATE TRIGGER tags_change_other AFTER UPDATE OR DELETE OR TRUNCATE ON tags FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
DROP TRIGGER IF EXISTS news_articles_bump_public_version ON news_articles;--> statement-breakpoint
CREATE TRIGGER news_articles_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news_articles FOR EACH STATEMENT EXECUTE FUNCTION news_public_change();
