-- The dictionary of words that event titles and organizers use, for typo tolerance: a query word
-- is expanded to the few dictionary words most similar to it (pg_trgm, GIN-indexed), and the
-- events are then found through the full-text GIN index alone. The trigram comparison runs over
-- a few thousand distinct words instead of every event's text. Words are only ever added (a
-- word no event uses any more expands to a lexeme that matches nothing).
CREATE TABLE IF NOT EXISTS "search_words" (
	"word" text PRIMARY KEY NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT w FROM events, regexp_split_to_table(search_text, '[^[:alnum:]]+') AS w
WHERE length(w) BETWEEN 2 AND 40
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION add_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows, regexp_split_to_table(new_rows.search_text, '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 2 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_add_search_words_ins AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION add_search_words();--> statement-breakpoint
CREATE TRIGGER events_add_search_words_upd AFTER UPDATE ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION add_search_words();--> statement-breakpoint
-- submissions look up `base` and `base-N` slugs as a prefix range, which needs byte order
CREATE INDEX IF NOT EXISTS "events_slug_c_idx" ON "events" ("slug" COLLATE "C");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tags_slug_c_idx" ON "tags" ("slug" COLLATE "C");
