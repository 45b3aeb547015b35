# One Node host serving the site and its lead endpoint (`claimsite serve`), as the README's deploy
# guide describes. The site is built into the image; the leads' database lives on a volume.
#
#   docker build --build-arg SITE_URL=https://www.example.ca -t claimsite .
#   docker run -d -p 8080:8080 -v claimsite-outbox:/var/lib/claimsite \
#     -e GHL_TOKEN=... -e GHL_LOCATION_ID=... -e SITE_ORIGIN=https://www.example.ca claimsite

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY . .
# Installing runs `prepare`, which compiles the CLI: the sources are copied in first.
RUN npm ci --omit=dev --no-audit --no-fund
# SITE_URL, if given as a build argument, sets the URL in canonical links and sitemap.xml;
# TURNSTILE_SITE_KEY puts Cloudflare Turnstile on the forms.
ARG SITE_URL
ARG TURNSTILE_SITE_KEY
RUN node bin/claimsite.cjs generate --out dist --precompress

FROM node:22-bookworm-slim
ENV NODE_ENV=production
# tini is PID 1: it hands docker stop's SIGTERM to node, which stops taking connections, lets the
# leads being posted finish and be kept, and closes the database, all within Docker's 10 s.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./package.json
# The compiled CLI carries its dependencies but the native ones (the leads' SQLite driver among
# them), which load from node_modules: the build stage's, production packages only.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/lib ./lib
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/claimsite/outbox && chown -R node:node /var/lib/claimsite
# The database; an outbox of an older version in the same folder (leads.jsonl) is imported once.
ENV LEAD_OUTBOX_PATH=/var/lib/claimsite/outbox/leads.db
VOLUME /var/lib/claimsite
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "bin/claimsite.cjs", "serve", "--dir", "dist", "--host", "0.0.0.0", "--port", "8080"]
