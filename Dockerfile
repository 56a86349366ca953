# syntax=docker/dockerfile:1
#
# The services' images, one target each, all from this file and the repository root as context:
#
#   docker build --target auth -t uis-auth .        (studies, content, records, mailer, realtime, signal alike)
#
# Each target runs its service (`node dist/src/main.js`, listening on proto's port for it). The migration
# jobs use the image of their service with another command, `node dist/src/migrate.js` (auth, studies,
# content, records), so a job can never migrate with other code than the service it prepares.
# The gateway (nginx with the web app) is gateway/Dockerfile.
#
# Stages: `manifests` (lockfile and workspace manifests) -> `build` (every dev dependency, tsc) and
# `prod-deps` (`npm ci --omit=dev` for the services' workspaces only: no web, no scripts) -> `runtime`
# (node, production dependencies, compiled JavaScript; non-root) -> one small target per service. All
# targets share the runtime layers, so a host pulling the seven images stores those layers once.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- manifests: what `npm ci` reads (it checks every workspace's manifest against the lockfile) ----
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY proto/package.json proto/
COPY services/kit/package.json services/kit/
COPY services/mailer/package.json services/mailer/
COPY services/auth/package.json services/auth/
COPY services/studies/package.json services/studies/
COPY services/content/package.json services/content/
COPY services/records/package.json services/records/
COPY services/realtime/package.json services/realtime/
COPY services/signal/package.json services/signal/
COPY scripts/package.json scripts/
COPY web/package.json web/

# ---- build: the TypeScript of proto, kit and the services, with their dev dependencies ----
FROM manifests AS build
RUN --mount=type=cache,target=/root/.npm \
    npm ci --include-workspace-root \
      --workspace proto --workspace services/kit --workspace services/mailer \
      --workspace services/auth --workspace services/studies --workspace services/content \
      --workspace services/records --workspace services/realtime --workspace services/signal
COPY tsconfig.base.json ./
COPY proto/ proto/
COPY services/ services/
RUN npx tsc -b proto services/kit services/mailer services/auth services/studies services/content \
      services/records services/realtime services/signal

# ---- prod-deps: production dependencies of the services' workspaces, nothing else ----
FROM manifests AS prod-deps
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev \
      --workspace services/auth --workspace services/studies --workspace services/content \
      --workspace services/records --workspace services/mailer --workspace services/realtime \
      --workspace services/signal

# ---- runtime: what every service image holds ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# node_modules (workspace packages linked as node_modules/@uis/*) and the workspace manifests.
COPY --from=prod-deps /app ./
# Only the compiled sources: no tests, benchmarks or TypeScript.
COPY --from=build /app/proto/dist/src proto/dist/src
COPY --from=build /app/services/kit/dist/src services/kit/dist/src
COPY --from=build /app/services/mailer/dist/src services/mailer/dist/src
COPY --from=build /app/services/auth/dist/src services/auth/dist/src
COPY --from=build /app/services/studies/dist/src services/studies/dist/src
COPY --from=build /app/services/content/dist/src services/content/dist/src
COPY --from=build /app/services/records/dist/src services/records/dist/src
COPY --from=build /app/services/realtime/dist/src services/realtime/dist/src
COPY --from=build /app/services/signal/dist/src services/signal/dist/src
# The image's `node` user (numeric, so Kubernetes' runAsNonRoot can check it). Files stay root's:
# the process cannot change its own code, and needs nothing writable but /tmp.
USER 1000:1000
# /health answers while the process is alive (/ready also checks its dependencies); PORT is set by each
# target. Node's own fetch: the slim image has no curl or wget.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# ---- one target per service (ports: proto/src/services.ts) ----
FROM runtime AS auth
LABEL org.opencontainers.image.title="uis-auth"
WORKDIR /app/services/auth
ENV PORT=3001
EXPOSE 3001
CMD ["node", "dist/src/main.js"]

FROM runtime AS studies
LABEL org.opencontainers.image.title="uis-studies"
WORKDIR /app/services/studies
ENV PORT=3002
EXPOSE 3002
CMD ["node", "dist/src/main.js"]

FROM runtime AS content
LABEL org.opencontainers.image.title="uis-content"
WORKDIR /app/services/content
ENV PORT=3003
EXPOSE 3003
CMD ["node", "dist/src/main.js"]

FROM runtime AS records
LABEL org.opencontainers.image.title="uis-records"
WORKDIR /app/services/records
ENV PORT=3004
EXPOSE 3004
CMD ["node", "dist/src/main.js"]

FROM runtime AS mailer
LABEL org.opencontainers.image.title="uis-mailer"
WORKDIR /app/services/mailer
ENV PORT=3005
EXPOSE 3005
CMD ["node", "dist/src/main.js"]

FROM runtime AS realtime
LABEL org.opencontainers.image.title="uis-realtime"
WORKDIR /app/services/realtime
ENV PORT=9000
EXPOSE 9000
CMD ["node", "dist/src/main.js"]

FROM runtime AS signal
LABEL org.opencontainers.image.title="uis-signal"
WORKDIR /app/services/signal
ENV PORT=9001
EXPOSE 9001
CMD ["node", "dist/src/main.js"]
