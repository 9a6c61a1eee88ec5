-- Straightforward-SQL ceiling of GET /api/events?kota=:city&kategori=:category&sort=start_date_asc&page=3:
-- published events of one city and one category by start date, page 3 (offset 24), plus the exact total.
--   pgbench -n -M prepared -c 32 -j 2 -T 10 -f bench/sql/filtered.sql -D city=jakarta-selatan -D category=musik "$DATABASE_URL"
SELECT e.id, e.title, e.slug, e.short_description, e.poster_url, e.start_date, e.end_date, e.start_time,
       e.event_type, e.venue_name, ci.name AS city_name, ci.slug AS city_slug, ca.name AS category_name,
       ca.slug AS category_slug, e.ticket_price_min, e.ticket_price_max, e.is_free, e.organizer_name
FROM events e
JOIN categories ca ON ca.id = e.category_id
LEFT JOIN cities ci ON ci.id = e.city_id
WHERE e.status = 'published'
  AND e.category_id = (SELECT id FROM categories WHERE slug = :category)
  AND e.city_id = (SELECT id FROM cities WHERE slug = :city)
ORDER BY e.start_date ASC, e.id ASC
LIMIT 12 OFFSET 24;
SELECT count(*)::int AS total FROM events e
WHERE e.status = 'published'
  AND e.category_id = (SELECT id FROM categories WHERE slug = :category)
  AND e.city_id = (SELECT id FROM cities WHERE slug = :city);
