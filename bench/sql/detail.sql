-- SQL ceiling of GET /api/events/:slug: the published event with its category and city, then its
-- tags (two round trips, as the service's cache-miss path does).
--   pgbench -n -M prepared -c 32 -j 2 -T 10 -f bench/sql/detail.sql -D slug=<event slug> "$DATABASE_URL"
SELECT e.id AS event_id, e.title, e.slug, e.short_description, e.poster_url, e.start_date, e.end_date,
       e.start_time, e.event_type, e.venue_name, ci.name AS city_name, ci.slug AS city_slug,
       ca.name AS category_name, ca.slug AS category_slug, e.ticket_price_min, e.ticket_price_max, e.is_free,
       e.organizer_name, e.description, e.gallery, e.end_time, e.venue_address, e.latitude, e.longitude,
       ci.time_zone AS city_time_zone, e.contact_phone, e.ticket_url
FROM events e
JOIN categories ca ON ca.id = e.category_id
LEFT JOIN cities ci ON ci.id = e.city_id
WHERE e.slug = :slug AND e.status = 'published'
LIMIT 1 \gset
SELECT t.id, t.name, t.slug
FROM event_tags et JOIN tags t ON t.id = et.tag_id
WHERE et.event_id = :event_id
ORDER BY t.name;
