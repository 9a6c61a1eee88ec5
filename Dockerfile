# One image for every service; the command picks the service (see compose.yaml).
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

FROM oven/bun:1-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/shared ./shared
COPY --from=deps /app/services ./services
COPY package.json bun.lock bunfig.toml tsconfig.json ./
COPY shared ./shared
COPY services ./services
# the image's unprivileged user; services only need to read the code
RUN mkdir -p /app/data && chown bun:bun /app/data
ENV DATA_DIR=/app/data
USER bun
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:3000/ready').then(r => process.exit(r.ok ? 0 : 1)).catch(() => process.exit(1))"]
CMD ["bun", "run", "services/catalog/src/main.ts"]
