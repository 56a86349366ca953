# syntax=docker/dockerfile:1
#
# Every image, one target each, all from this file and the repository root as context:
#
#   docker build --target auth -t uis-auth .        (studies, content, records, mailer, realtime, signal alike)
#   docker build --target gateway -t uis-gateway .  (nginx with the web app)
#
# Each service target runs its service (`node dist/src/main.js`, listening on proto's port for it). The
# migration jobs use the image of their service with another command, `node dist/src/migrate.js` (auth,
# studies, content, records), so a job can never migrate with other code than the service it prepares.
#
# Stages: `manifests` (lockfile and workspace manifests) -> `build` (every dev dependency, tsc) and
# `prod-deps` (`npm ci --omit=dev` for the services' workspaces only: no web, no scripts) -> `runtime`
# (node, production dependencies, compiled JavaScript; non-root) -> one small target per service. All
# service targets share the runtime layers, so a host pulling the seven images stores those layers once.
# `manifests` -> `web` (the React app) -> `gateway` (nginx; see the gateway section at the end).

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginx:1.28-alpine

# ---- manifests: what `npm ci` reads (it checks every workspace's manifest against the lockfile), for every image ----
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY proto/package.json proto/
COPY services/kit/package.json services/kit/
COPY services/live-client/package.json services/live-client/
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

# ---- web: the React app (web/dist), built with proto's compiled route table and the live client ----
FROM manifests AS web
RUN --mount=type=cache,target=/root/.npm \
    npm ci --include-workspace-root --workspace proto --workspace services/live-client --workspace web
COPY tsconfig.base.json ./
COPY proto/ proto/
COPY services/live-client/ services/live-client/
COPY web/ web/
# vite.config.ts reads proto's build; `npm run build -w web` type-checks, bundles and enforces the
# login route's size budget.
RUN npx tsc -b proto && npm run build --workspace web

# ---- gateway: nginx with the built web app and gateway/'s configuration ----
# nginx.conf and the files it includes (routes.conf and the others generated by `npm run gateway`).
# It listens on 8443 with TLS. Mount a certificate at /etc/nginx/tls (tls.crt and tls.key: a
# Kubernetes TLS Secret has exactly these names); without one the entrypoint makes a self-signed
# certificate for localhost at start, for local use only, and says so (gateway/README.md). The web
# app's run-time settings come from the environment: WEB_API_URL, WEB_REALTIME_URL, WEB_SIGNAL_URL,
# GOOGLE_CLIENT_ID (empty: the app's own origin, no Google sign-in).
FROM ${NGINX_IMAGE} AS gateway
# openssl for the local self-signed certificate, curl for the health check; the image's own default
# server is not ours (our nginx.conf replaces the image's and includes nothing from conf.d).
RUN apk add --no-cache openssl curl && rm -f /etc/nginx/conf.d/default.conf
# nginx.conf and everything it includes beside it; mime.types is the image's own.
COPY gateway/*.conf /etc/nginx/
# The app's /app-config.json is not baked in: the entrypoint writes it at start from WEB_API_URL,
# WEB_REALTIME_URL, WEB_SIGNAL_URL and GOOGLE_CLIENT_ID, so one image serves every deployment.
COPY --from=web /app/web/dist /etc/nginx/html
COPY --chmod=755 gateway/docker-entrypoint.sh /usr/local/bin/uis-gateway-entrypoint
# The image's nginx user; pid, temporary files and the folder nginx runs from (the entrypoint) go to
# /tmp, so the root filesystem can be read-only.
USER 101:101
EXPOSE 8443
# The web app's page over TLS (the gateway answers /health with 404: that path is never routed).
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["curl", "--fail", "--silent", "--insecure", "--output", "/dev/null", "--header", "Accept: text/html", "https://127.0.0.1:8443/"]
ENTRYPOINT ["/usr/local/bin/uis-gateway-entrypoint"]
CMD []
