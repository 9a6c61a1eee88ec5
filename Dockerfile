# One multi-target file: a shared runtime stage and one small target per service
# (docker build --target media .), plus `migrate`. Runs as the image's unprivileged user `bun`
# with a read-only root filesystem: the only writable paths are /tmp and DATA_DIR (/app/data),
# mounted as volumes/tmpfs (compose.yaml, deploy/k8s). Only production dependencies are installed.
FROM oven/bun:1-slim AS deps
WORKDIR /app
COPY package.json bun.lock bunfig.toml ./
COPY shared/db/package.json shared/db/
COPY shared/kit/package.json shared/kit/
COPY services/catalog/package.json services/catalog/
COPY services/news/package.json services/news/
COPY services/media/package.json services/media/
COPY services/admin/package.json services/admin/
COPY services/docs/package.json services/docs/
RUN bun install --frozen-lockfile --production

FROM oven/bun:1-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
# JavaScriptCore sizes its heap growth for the host's RAM, not the container's limit: on a 24 GB
# host a catalog under miss-heavy load peaked at 290-380 MiB, with this at 150-165 MiB for the
# same throughput (bench/results, README Performance). Override per deployment if a limit is larger.
ENV BUN_JSC_forceRAMSize=134217728
# How long Bun's allocator (mimalloc) keeps freed pages before returning them to the system:
# its own default, 10 ms. Returned at once (0, until the twenty-sixth round) every large buffer an
# answer allocates was faulted in again and every return was a madvise with a TLB flush on both
# cores: ~30% of the catalog's CPU under distinct URLs, for ~10 MiB less at peak (README Performance)
ENV MIMALLOC_PURGE_DELAY=10
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/shared ./shared
COPY --from=deps /app/services ./services
COPY package.json bun.lock bunfig.toml tsconfig.json ./
COPY shared ./shared
COPY services ./services
# the image's unprivileged user; services only need to read the code
RUN mkdir -p /app/data && chown bun:bun /app/data
ENV DATA_DIR=/app/data
VOLUME ["/tmp", "/app/data"]
USER bun
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:3000/ready').then(r => process.exit(r.ok ? 0 : 1)).catch(() => process.exit(1))"]
CMD ["bun", "run", "services/catalog/src/main.ts"]

FROM runtime AS migrate
HEALTHCHECK NONE
CMD ["bun", "run", "shared/db/src/cli/migrate.ts"]

FROM runtime AS news
CMD ["bun", "run", "services/news/src/main.ts"]

FROM runtime AS media
CMD ["bun", "run", "services/media/src/main.ts"]

FROM runtime AS admin
CMD ["bun", "run", "services/admin/src/main.ts"]

FROM runtime AS docs
CMD ["bun", "run", "services/docs/src/main.ts"]

# last, so a plain `docker build .` gives the catalog
FROM runtime AS catalog
CMD ["bun", "run", "services/catalog/src/main.ts"]
