-- The service's per-request SQL when its response cache is warm. With a trusted listener
-- (shared/kit/src/invalidation.ts: replicas LISTEN for version bumps) a cache hit issues no SQL
-- at all (the report's "db queries / request" column shows it); when the listener is not
-- trusted, the service falls back to reading this version per request (shared by requests that
-- arrive before the query is sent; shared/kit/src/response-cache.ts). This measures that fallback.
--   pgbench -n -M prepared -c 32 -j 2 -T 10 -f bench/sql/version.sql "$DATABASE_URL"
SELECT version FROM data_versions WHERE scope = 'public';
