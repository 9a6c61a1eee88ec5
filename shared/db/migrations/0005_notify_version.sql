-- Tell listening replicas the new version as soon as the write commits (NOTIFY is delivered at
-- commit, never for a rolled-back transaction).
CREATE OR REPLACE FUNCTION bump_public_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_version bigint;
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE scope = 'public' RETURNING version INTO next_version;
  PERFORM pg_notify('data_version', next_version::text);
  RETURN NULL;
END
$$;
