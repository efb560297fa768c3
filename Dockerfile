# One image for the engine API, the worker and the sandbox; docker-compose.yml picks the command.
# Pinned by digest, as in docker-compose.yml (change tag and digest together: `docker buildx imagetools
# inspect node:<version>-bookworm-slim` prints it), on the Node the repository pins (package.json's `node`,
# 24.19.0). The digest was taken from public references (the same one in several independent repositories),
# not pulled here: no image registry is reachable from the machine that wrote it; `docker build` verifies it.
FROM node:24.19.0-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df AS build
WORKDIR /app
# node-gyp's toolchain: npm runs better-sqlite3's `node-gyp rebuild` at install. On linux x64 and arm64 it
# compiles nothing (better-sqlite3 13's npm package carries those binaries) but still needs python3 and make.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm install, not npm ci: see .ci/run (the lockfile cannot list other platforms' optional packages).
# It brings the pinned Node too (the `node` dependency, kept by the prune below), and `npm run` puts it first
# on PATH: the services run on that Node, as in development and CI, and this image's own Node runs npm only.
# Both are 24.19.0 now that the base image is pinned by digest; the dependency stays the one source of the
# runtime's version (a base image bumped alone cannot move it). The cost is a second Node binary (~120 MB).
RUN npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# The provider sandbox (compose's `sandbox` profile runs it from the same image).
COPY sandbox ./sandbox
RUN npm run build:workflows -- dist/workflow-bundle.js && npm prune --omit=dev

FROM node:24.19.0-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df
WORKDIR /app
ENV NODE_ENV=production WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 4010
CMD ["npm", "run", "api"]
