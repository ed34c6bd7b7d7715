# The API (and, with another command, the workers) for a production-like run.
FROM node:24-bookworm-slim
WORKDIR /app
ENV CI=true
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
# glibc returns freed buffers above 128 KB to the system at once (docs/benchmarks/api.md).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 MALLOC_MMAP_THRESHOLD_=131072
EXPOSE 3000
USER node
CMD ["node", "--max-semi-space-size=8", "services/server/src/main.ts"]
