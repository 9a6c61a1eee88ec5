-- Every write to a table that public responses are made from bumps the 'public' version in
-- the same transaction, so a cached response is known stale by any replica as soon as the
-- write commits. Statement-level: one bump per statement, however many rows it touched.
INSERT INTO data_versions (scope, version) VALUES ('public', 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_public_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE scope = 'public';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER event_tags_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON event_tags FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER categories_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER cities_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cities FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER tags_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tags FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER news_articles_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news_articles FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TRIGGER settings_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();
