# One Node host serving the site and its lead endpoint (`claimsite serve`), as the README's deploy
# guide describes. The site is built into the image; waiting leads live on a volume.
#
#   docker build -t claimsite .
#   docker run -p 8080:8080 -v claimsite-outbox:/var/lib/claimsite \
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
RUN node bin/claimsite.cjs generate --out dist

# The compiled CLI carries its dependencies: no node_modules at run time.
FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/bin ./bin
COPY --from=build /app/lib ./lib
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/claimsite/outbox && chown -R node:node /var/lib/claimsite
ENV LEAD_OUTBOX_PATH=/var/lib/claimsite/outbox/leads.jsonl
VOLUME /var/lib/claimsite
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/claimsite.cjs", "serve", "--dir", "dist", "--host", "0.0.0.0", "--port", "8080"]
