DROP INDEX "events_status_created_idx";--> statement-breakpoint
DROP INDEX "news_status_published_idx";--> statement-breakpoint
CREATE INDEX "events_city_category_start_idx" ON "events" USING btree ("city_id","category_id","status","start_date","id");--> statement-breakpoint
CREATE INDEX "events_status_created_idx" ON "events" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "news_status_published_idx" ON "news_articles" USING btree ("status","published_at","id");