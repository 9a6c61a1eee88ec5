-- Straightforward-SQL ceiling of GET /api/news: the newest 9 public articles (published and not
-- scheduled for later), plus the exact total.
-- ORDER BY says NULLS LAST (the columns are NOT NULL, so the order is the same as plain DESC)
-- because the index on (status, published_at DESC NULLS LAST, id DESC NULLS LAST) only serves
-- that spelling: plain DESC means NULLS FIRST and turns the page into a full scan + sort.
--   pgbench -n -M prepared -c 32 -j 2 -T 10 -f bench/sql/news.sql "$DATABASE_URL"
SELECT n.id, n.title, n.slug, n.excerpt, n.cover_url, n.category, n.author_name, n.published_at
FROM news_articles n
WHERE n.status = 'published' AND n.published_at <= now()
ORDER BY n.published_at DESC NULLS LAST, n.id DESC NULLS LAST
LIMIT 9;
SELECT count(*)::int AS total FROM news_articles n WHERE n.status = 'published' AND n.published_at <= now();
