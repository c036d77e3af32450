# Quarry's image: the web app (default command) and, with `npm run worker`, a queue worker.
# Multi-stage: dependencies (with the compilers better-sqlite3 needs), the build, then a runtime
# stage without compilers that runs as the unprivileged `node` user.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Install scripts off (Prisma's only try engine downloads the JS engine does not need); the one
# native module is compiled explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3

FROM deps AS build
WORKDIR /app
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run db:generate && npm run build

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build --chown=node:node /app /app
# The build is newer than every source (npm start would rebuild otherwise); data/ holds reports,
# uploads and the generated auth secret, on a volume shared by the app and its workers.
RUN touch .next/BUILD_ID && mkdir -p data && chown node:node data .next/BUILD_ID
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/config/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrates the database, then serves (scripts/start.mjs).
CMD ["node", "scripts/start.mjs"]
