# One image for the engine API, the worker and the sandbox; docker-compose.yml picks the command.
# Pinned by digest, as in docker-compose.yml: change tag and digest together.
FROM node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0 AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm install, not npm ci: see .ci/run (the lockfile cannot list other platforms' optional packages).
RUN npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# The provider sandbox (compose's `sandbox` profile runs it from the same image).
COPY sandbox ./sandbox
RUN npm run build:workflows -- dist/workflow-bundle.js && npm prune --omit=dev

FROM node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0
WORKDIR /app
ENV NODE_ENV=production WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 4010
CMD ["npm", "run", "api"]
