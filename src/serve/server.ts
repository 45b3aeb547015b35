import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { TrustedProxies } from '../lead/client-ip.js';
import { configFromEnv } from '../lead/config.js';
import { createLeadService, type LeadService } from '../lead/handler.js';
import type { Log } from '../lead/log.js';
import { handleNode } from '../lead/node.js';
import { withConfiguredStore } from '../lead/open-store.js';
import { basePathOf } from '../urls.js';
import { guardConnections } from './connections.js';
import { applyLimits, limitsOf, type ServerLimits, serverOptions } from './limits.js';
import { refuseBadHost } from './request-checks.js';
import { createStaticHandler } from './static.js';
import {
  EVENTS_PATH,
  RELOAD_JS,
  RELOAD_SCRIPT,
  RELOAD_SCRIPT_PATH,
  type Watcher,
} from './watch.js';

interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** Where the lead endpoint is mounted; null for none. */
  apiPath?: string | null;
  /** The endpoint and its store, when the caller made them; otherwise made from the environment. */
  leads?: LeadService;
  /** Leave waiting leads to someone else (tests); by default the server tries them again. */
  noRetries?: boolean;
  log?: Log;
  /** Watch mode: serves the reload channel and injects its script into HTML answers. */
  watcher?: Watcher;
  /** Timeouts and the connection cap; DEFAULT_LIMITS for what is not given. */
  limits?: Partial<ServerLimits>;
  /**
   * The folder the site is served under (/myrepo), as its host serves it; by default the built
   * site's own (its home page's canonical URL), read again after each build.
   */
  basePath?: string;
}

/** What startServer started: `close` stops it gracefully (see there). */
export interface Serving {
  server: Server;
  url: string;
  urls: string[];
  /**
   * Stops taking connections, lets the lead requests under way finish (for `graceMs` at most),
   * stops the retries once the lead they are delivering is done, and closes the store.
   */
  close(graceMs?: number): Promise<void>;
}

/** Where a process serving the endpoint reports its health (a container's HEALTHCHECK). */
export const HEALTH_PATH = '/api/health';

/**
 * The built folder, served the way a static host serves it, with the lead endpoint mounted at its
 * path: the preview, and one Node host serving both. Unless told where the site is (SITE_ORIGIN,
 * SITE_URL), the endpoint accepts posts from this server's addresses and the built site's own
 * (its home page's canonical URL), and it tries waiting leads again on a schedule.
 */
export async function startServer(options: ServeOptions): Promise<Serving> {
  const basePath =
    options.basePath === undefined ? builtBasePath(options.dir) : () => options.basePath ?? '';
  const serveStatic = createStaticHandler(options.dir, {
    basePath,
    inject: options.watcher ? RELOAD_SCRIPT : undefined,
  });
  const limits = limitsOf(options.limits);
  const apiPath = options.apiPath === undefined ? '/api/lead' : options.apiPath;
  let leads: LeadService | undefined = options.leads;
  let retries: { stop(): Promise<void> } | undefined;
  const leadRequests = new Set<Promise<unknown>>();
  const proxies = new TrustedProxies(process.env.LEAD_TRUSTED_PROXIES ?? '');
  const route = router(options, { basePath, serveStatic, apiPath, leadRequests }, () => leads);
  const server = createServer(serverOptions(limits), (req, res) => {
    if (!guard.admit(req, res)) return;
    route(req, res);
  });
  applyLimits(server, limits);
  const guard = guardConnections(
    server,
    { maxConnections: limits.maxConnections, perAddress: limits.maxPerAddress },
    proxies,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const urls = reachableAt(address, port);
  const url = urls[0] ?? `http://127.0.0.1:${port}`;
  const ownService = apiPath && !leads;
  if (ownService) {
    leads = createLeadService(
      withConfiguredStore({
        config: configFromEnv(process.env, {
          siteOrigin: [...urls, `http://localhost:${port}`, builtOrigin(options.dir)].join(','),
          basePath: basePath(),
        }),
        log: options.log,
      }),
    );
    if (!options.noRetries) {
      const r = leads.startRetrying();
      retries = r;
      server.on('close', () => void r.stop());
    }
  }
  const close = async (graceMs = 8000) => {
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeIdleConnections();
    const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
    await Promise.race([Promise.allSettled([...leadRequests]), grace]);
    // What is left (open pages' keep-alive and reload connections) is closed now.
    server.closeAllConnections();
    await closed;
    await Promise.race([retries?.stop(), grace]);
    if (ownService) await leads?.deliverer.store.close();
  };
  return { server, url, urls, close };
}

/** Each request to what answers it: the reload channel, the lead endpoint, health, or a file. */
function router(
  options: ServeOptions,
  {
    basePath,
    serveStatic,
    apiPath,
    leadRequests,
  }: {
    basePath: () => string;
    serveStatic: ReturnType<typeof createStaticHandler>;
    apiPath: string | null;
    /** The lead requests under way, for a stop to wait for. */
    leadRequests: Set<Promise<unknown>>;
  },
  leadService: () => LeadService | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const leads = leadService();
    if (refuseBadHost(req, res)) return;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (options.watcher && path === EVENTS_PATH) return options.watcher.events(req, res);
    if (options.watcher && path === RELOAD_SCRIPT_PATH) {
      res.writeHead(200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(RELOAD_JS);
      return;
    }
    // The endpoint is under the site's folder too (a form posts to /myrepo/api/lead).
    const folder = basePath().replace(/\/+$/, '');
    const site = folder && path.startsWith(`${folder}/`) ? path.slice(folder.length) : path;
    const isLead = apiPath && leads && (site === apiPath || site === `${apiPath}/`);
    // The endpoint answers as mounted at the site's root: its pages are under the folder anyway.
    if (isLead && site !== path) req.url = (req.url ?? '/').slice(folder.length);
    const work = isLead
      ? handleNode(leads.handle, req, res)
      : apiPath && leads && path === HEALTH_PATH
        ? health(leads, res)
        : serveStatic(req, res);
    if (isLead) {
      leadRequests.add(work);
      void work.finally(() => leadRequests.delete(work)).catch(() => {});
    }
    work.catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

/**
 * The addresses the server answers at: the one it listens on, or, listening on every interface
 * (0.0.0.0, ::), each interface's, so a phone on the same network can be pointed at one of them
 * and its form posts are this site's own.
 */
function reachableAt(address: string, port: number): string[] {
  const url = (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (address !== '0.0.0.0' && address !== '::') return [url(address)];
  const all = Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && (address === '::' || i.family === 'IPv4') && !i.address.startsWith('fe80'))
    .map((i) => url(i?.address ?? ''));
  // Loopback first: the address to open on this machine.
  return all.sort((a, b) => Number(!a.includes('127.0.0.1')) - Number(!b.includes('127.0.0.1')));
}

/** The origin of the built site, from its home page's canonical URL; empty when there is none. */
function builtOrigin(dir: string): string {
  const href = homeCanonical(dir);
  return href ? new URL(href).origin : '';
}

function homeCanonical(dir: string): string | null {
  try {
    const home = readFileSync(path.join(dir, 'index.html'), 'utf8');
    return /<link rel="canonical" href="([^"]+)"/.exec(home)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The built site's folder (see basePathOf), read again whenever its home page changes: looked at
 * once a second at most, not on every request.
 */
function builtBasePath(dir: string): () => string {
  let seen = '';
  let folder = '';
  let checked = -Infinity;
  return () => {
    const now = performance.now();
    if (now - checked < 1000) return folder;
    checked = now;
    const info = statSync(path.join(dir, 'index.html'), { throwIfNoEntry: false });
    const stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : '';
    if (stamp !== seen) {
      const href = homeCanonical(dir);
      folder = href ? basePathOf(href) : '';
      seen = stamp;
    }
    return folder;
  };
}

/** Up, and how many leads wait for the CRM: no personal data, nothing that needs a token. */
async function health(leads: LeadService, res: ServerResponse): Promise<void> {
  const { status, body } = await leads.health();
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    })
    .end(JSON.stringify(body));
}
