# syntax=docker/dockerfile:1
# pgkube server image. Needs DATABASE_URL (the embedded PostgreSQL is left out of the image); settings come from
# the environment or as flags after the image name, e.g. `docker run pgkube --min-request-timeout=600`.

# Build stage: every dependency, the Prisma client generated from prisma/schema.prisma, TypeScript compiled; then
# the development and optional dependencies (Prisma's CLI, TypeScript, the embedded PostgreSQL binaries) removed.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY src ./src
RUN npm run prisma:generate \
 && npm run build \
 && npm prune --omit=dev --omit=optional --no-audit --no-fund

# Runtime stage: the compiled server (with the generated client), production dependencies and the SQL migrations,
# which the server applies at start-up. Owned by root and run as the unprivileged `node` user.
FROM node:20-bookworm-slim
# the secure port on every address; the insecure port on loopback only (the health check below uses it); a
# self-signed certificate in CERT_DIR unless TLS_CERT_FILE is given
ENV NODE_ENV=production BIND_ADDRESS=0.0.0.0 SECURE_PORT=6443 PORT=8080 CERT_DIR=/home/node/certs
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
USER node
EXPOSE 6443
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/main.js"]
