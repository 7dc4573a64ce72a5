# The site in a container: `docker build -t charity-site .`, or `docker compose up` with
# compose.yaml (the site, PostgreSQL and an S3-compatible server). See docs/deployment.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# In case better-sqlite3 has to be compiled (no prebuilt binary for this platform).
RUN apt-get update \
  && apt-get install -y --no-install-recommends build-essential python3 \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# ffmpeg converts uploaded videos; pg_dump/pg_restore (15, as the compose file's server) serve `npm run backup`.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg postgresql-client \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
# The site's data (SQLite database, uploads on local disk, unfinished uploads) lives in /data,
# the only folder the site writes; the code stays owned by root.
RUN mkdir /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# One process; `node build/server/start-cluster.js` runs WEB_CONCURRENCY of them instead.
CMD ["node", "build/server/start.js"]
