# syntax=docker/dockerfile:1
# Image of the impact service: `docker build -t impact-service .`, then
# `docker run --rm -p 8080:8080 impact-service` (README, "Container and cluster").
# The major of the runtime that `npm ci` pins for the npm scripts (package.json's
# optionalDependencies, README "Runtime"): the image runs what the tests and the benchmark ran.
ARG NODE_IMAGE=node:26-bookworm-slim

# 1. Build: every dependency (esbuild and tsx are two), then the bundles scripts/build.ts
#    describes: the server (src/app), the command line (src/cli/entry.ts) and its pool's worker,
#    side by side in dist/bundle. The install runs no script (package.json's `prepare` builds from
#    sources not copied yet) but esbuild's own, which checks its platform binary.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild esbuild
COPY tsconfig.json ./
COPY src ./src
COPY scripts/build.ts ./scripts/build.ts
RUN npm run build

# 2. Runtime dependencies only. The bundle keeps packages external (esbuild --packages=external),
#    so node resolves them from node_modules at run time. No install script is needed to run:
#    esbuild is not used once the bundle exists, and Scarf's telemetry is refused anyway. No
#    optional package either: the pinned Node binary (the image has its own Node), esbuild's
#    platform binary and piscina's thread-priority addon are not needed by the server.
FROM ${NODE_IMAGE} AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. Runtime: the bundle, its dependencies, the reference data and the project's documents (the
#    service serves README.md, CHANGELOG.md and docs/*.md), owned by root and run by the
#    unprivileged `node` user of the official image. The command line too: `/evaluate` runs its
#    bundle (dist/bundle/cli.mjs, beside the server's) in a child process on an uploaded file
#    (src/service/fileEvaluation.ts), which reads the SQL of billing exports and the data; the
#    shipped bin (bin/) runs that bundle for a command run in the image. No sources and no tsx: the
#    bundle is the command. The service writes only
#    that run's temporary folder, under the temp folder (/tmp): a size-bounded volume in the
#    manifests (deploy/deployment.yaml's emptyDir, compose.yaml's tmpfs), the root file system
#    being read-only; test/deploy/manifests.test.ts checks every file the command reads is here.
FROM ${NODE_IMAGE} AS runtime
# NODE_ENV and glibc's malloc settings: npm start's variables, word for word
# (test/server/memorySettings.test.ts; why: docs/operations.md, "Native memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=1048576 \
    PORT=8080
WORKDIR /app
COPY package.json ./
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY data ./data
COPY README.md CHANGELOG.md LICENSE ./
COPY docs ./docs
COPY bin ./bin
COPY sql ./sql
COPY --from=build /app/dist/bundle ./dist/bundle
USER node
EXPOSE 8080
# Liveness as the orchestrators see it; node's own fetch, since the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1's direct program, so `docker stop`'s SIGTERM reaches the service's
# graceful stop (no shell in between swallowing the signal). Node's flags are package.json's
# `start` script's, word for word (test/deploy/manifests.test.ts): a 768 MB old generation for
# the 1 GiB the manifests give the container, a 16 MB young generation (bench/README.md, "Memory
# under a mixed load", "A young generation of 16 MB").
ENTRYPOINT ["node", "--max-old-space-size=768", "--max-semi-space-size=16", "dist/bundle/server.mjs"]
