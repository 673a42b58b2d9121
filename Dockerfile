# Build stage: install everything, generate the Prisma client, compile TypeScript.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY src ./src
RUN npm run prisma:generate && npm run build && npm prune --omit=dev

# Runtime stage: the compiled server, production dependencies and the SQL migrations, run as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production BIND_ADDRESS=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY package.json ./
USER node
EXPOSE 8080
CMD ["node", "dist/main.js"]
