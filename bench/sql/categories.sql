-- Straightforward-SQL ceiling of GET /api/categories: the first 20 active categories with the
-- number of published events of each (a count per category), plus the exact total.
--   pgbench -n -M prepared -c 32 -j 2 -T 10 -f bench/sql/categories.sql "$DATABASE_URL"
SELECT c.id, c.name, c.slug, c.description, c.icon, c.image_url, c.is_active, c.sort_order,
       (SELECT count(*)::int FROM events e WHERE e.category_id = c.id AND e.status = 'published') AS event_count
FROM categories c
WHERE c.is_active = true
ORDER BY c.sort_order, c.name, c.id
LIMIT 20;
SELECT count(*)::int AS total FROM categories c WHERE c.is_active = true;
