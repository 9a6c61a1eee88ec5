\set r random(1, 227)
SELECT old, word FROM bench_params_search WHERE n = :r \gset
SELECT e.id, e.title, e.slug FROM events e JOIN categories ca ON ca.id = e.category_id LEFT JOIN cities ci ON ci.id = e.city_id WHERE e.status = 'published' AND (e.search_vector @@ to_tsquery('indonesian', :old) OR :word <% e.search_text) ORDER BY e.created_at DESC, e.id DESC LIMIT 12;
SELECT count(*)::int FROM events e WHERE e.status = 'published' AND (e.search_vector @@ to_tsquery('indonesian', :old) OR :word <% e.search_text);
