-- Straightforward-SQL ceiling of GET /api/events?q=:word: full text (indonesian, every word as a
-- prefix) OR trigram word similarity on title + organizer, newest first, plus the exact total.
-- Same predicate as textSearch() in shared/db/src/search.ts.
-- ORDER BY says NULLS LAST (the columns are NOT NULL, so the order is the same as plain DESC)
-- because the index on (status, created_at DESC NULLS LAST, id DESC NULLS LAST) only serves
-- that spelling: plain DESC means NULLS FIRST and turns the page into a full scan + sort.
--   pgbench -n -M prepared -c 16 -j 2 -T 10 -f bench/sql/search.sql -D tsquery=festival:* -D phrase=festival "$DATABASE_URL"
SELECT e.id, e.title, e.slug, e.short_description, e.poster_url, e.start_date, e.end_date, e.start_time,
       e.event_type, e.venue_name, ci.name AS city_name, ci.slug AS city_slug, ca.name AS category_name,
       ca.slug AS category_slug, e.ticket_price_min, e.ticket_price_max, e.is_free, e.organizer_name
FROM events e
JOIN categories ca ON ca.id = e.category_id
LEFT JOIN cities ci ON ci.id = e.city_id
WHERE e.status = 'published'
  AND (e.search_vector @@ to_tsquery('indonesian', :tsquery) OR :phrase <% e.search_text)
ORDER BY e.created_at DESC NULLS LAST, e.id DESC NULLS LAST
LIMIT 12;
SELECT count(*)::int AS total FROM events e
WHERE e.status = 'published'
  AND (e.search_vector @@ to_tsquery('indonesian', :tsquery) OR :phrase <% e.search_text);
