-- A submission's write in ONE statement (catalog submissions/service.ts): the event and its tag
-- links, and the data version they leave, inserted by a function the service calls outside a
-- transaction (or inside one when the submission creates tags). Until now these were statements
-- of a transaction that held the submissions' advisory lock and, from its first write, the data
-- version's row lock across the service's round trips: under a read load each waits for a turn
-- of the service's event loop (tens of ms), so submissions queued on the advisory lock and
-- approvals on the version's row (bench mix with 5 writes/s: submission p99 0.6-1.5 s, of which
-- 0.1-0.4 s waiting for the lock). Here both locks are held only while PostgreSQL runs it.
--
-- `fields`: the events columns the submission sets, by column name (the keys name the columns:
-- the service builds them from the schema, so a column added there needs nothing here). Returns
-- the new id, or NULL when the slug is taken (the caller tries the next free one), and the data
-- version after the writes, read by a later statement of the function, so after their triggers.
CREATE OR REPLACE FUNCTION insert_submitted_event(fields jsonb, tag_ids text[], lock_key bigint)
RETURNS TABLE (inserted_id text, version_after bigint) LANGUAGE plpgsql AS $$
DECLARE
  columns text;
BEGIN
  -- submissions one at a time, as before: one that held the version's row lock while it waited
  -- for a word another had just added to the search dictionary (that one waiting for the lock)
  -- deadlocked
  PERFORM pg_advisory_xact_lock(lock_key);
  SELECT string_agg(format('%I', key), ', ') INTO columns FROM jsonb_object_keys(fields) AS key;
  EXECUTE format(
    'INSERT INTO events (%1$s) SELECT %1$s FROM jsonb_populate_record(NULL::events, $1) ON CONFLICT (slug) DO NOTHING RETURNING id',
    columns) INTO inserted_id USING fields;
  IF inserted_id IS NOT NULL AND cardinality(tag_ids) > 0 THEN
    INSERT INTO event_tags (event_id, tag_id)
    SELECT inserted_id, t.id FROM tags t WHERE t.id = ANY (tag_ids)
    ON CONFLICT DO NOTHING;
  END IF;
  SELECT v.version INTO version_after FROM data_versions v WHERE v.scope = 'public';
  RETURN NEXT;
END
$$;
