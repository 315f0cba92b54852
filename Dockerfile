# syntax=docker/dockerfile:1
#
# Marque in a container: one image for the API (`serve`, the default command) and for each worker
# (`worker indexer|watches|webhooks`), as docker-compose.yml runs them. Entry: `node bin/marque.js`.
#
#   docker build -t marque .
#   docker run --rm -p 8080:8080 -v marque-data:/var/lib/marque marque      # embedded stores, demo data
#
# Stages: `toolchain` (Node and the compilers better-sqlite3's node-gyp build needs), `deps`
# (production node_modules only, native module compiled), `build` (all dependencies, `npm run
# build` into dist/), and the runtime, which gets node_modules from `deps` and dist/ from `build`:
# no compilers, no dev dependencies, no TypeScript sources.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# node-gyp compiles against the headers the image ships instead of downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app

# Production dependencies. Install scripts are skipped (the project's `prepare` script needs the
# sources and tsc, which are dev-only) and better-sqlite3's is run on its own: a prebuilt binary
# when one can be fetched, otherwise node-gyp with the toolchain above.
FROM toolchain AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

# The compiled build: every dependency (tsc is a dev dependency), then `npm run build` into dist/.
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    MARQUE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    MARQUE_DATA_DIR=/var/lib/marque
WORKDIR /app
# Owned by root and read-only to the service user; only the data directory is writable.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin/marque.js ./bin/marque.js
# Read at run time: the GraphQL schema and persisted operations, the reference data and the USPTO
# code tables (data/uspto, for `ingest`).
COPY schema ./schema
COPY data ./data
RUN mkdir -p /var/lib/marque && chown node:node /var/lib/marque && chmod 0700 /var/lib/marque
# `node` (uid 1000) is the unprivileged user of the official Node images.
USER node
VOLUME ["/var/lib/marque"]
EXPOSE 8080
# Readiness, not mere liveness: 200 while the database answers (ok or degraded), 503 when it does
# not or while draining for a stop. Node's fetch, since the slim image has no curl. Worker
# containers run the same image without a listener: docker-compose.yml disables this check there.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=4 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/marque.js"]
CMD ["serve"]
