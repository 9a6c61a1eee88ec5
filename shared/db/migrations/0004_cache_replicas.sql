CREATE TABLE "cache_replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"service" text NOT NULL,
	"acked_version" bigint DEFAULT 0 NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
