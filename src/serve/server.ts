import { readFileSync, statSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { configFromEnv } from '../lead/config.js';
import { FileLeadStore } from '../lead/file-store.js';
import { createLeadService, type LeadHandler } from '../lead/handler.js';
import type { Log } from '../lead/log.js';
import { handleNode } from '../lead/node.js';
import type { LeadStore } from '../lead/store.js';
import { basePathOf } from '../urls.js';
import { headersFor, parseHeadersFile } from './headers-file.js';
import { createStaticHandler } from './static.js';
import {
  EVENTS_PATH,
  RELOAD_JS,
  RELOAD_SCRIPT,
  RELOAD_SCRIPT_PATH,
  type Watcher,
} from './watch.js';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** Where the lead endpoint is mounted; null for none. */
  apiPath?: string | null;
  /** The endpoint, when the caller made it; otherwise one is made from the environment. */
  leadHandler?: LeadHandler;
  /** Leave waiting leads to someone else (tests); by default the server tries them again. */
  noRetries?: boolean;
  log?: Log;
  /** Watch mode: serves the reload channel and injects its script into HTML answers. */
  watcher?: Watcher;
  /** The outbox the health route reports on; by default the environment's (LEAD_OUTBOX_PATH). */
  outboxPath?: string;
  /**
   * The folder the site is served under (/myrepo), as its host serves it; by default the built
   * site's own (its home page's canonical URL), read again after each build.
   */
  basePath?: string;
}

/** Where a process serving the endpoint reports its health (a container's HEALTHCHECK). */
export const HEALTH_PATH = '/api/health';

/**
 * The built folder, served the way a static host serves it, with the lead endpoint mounted at its
 * path: the preview, and one Node host serving both. Unless told where the site is (SITE_ORIGIN,
 * SITE_URL), the endpoint accepts posts from this server's addresses and the built site's own
 * (its home page's canonical URL), and it tries waiting leads again on a schedule.
 */
export async function startServer(
  options: ServeOptions,
): Promise<{ server: Server; url: string; urls: string[] }> {
  const serveStatic = createStaticHandler(options.dir, options.watcher ? RELOAD_SCRIPT : undefined);
  const apiPath = options.apiPath === undefined ? '/api/lead' : options.apiPath;
  const basePath =
    options.basePath === undefined ? builtBasePath(options.dir) : () => options.basePath ?? '';
  const headerRules = cachedRules(path.join(options.dir, '_headers'));
  let lead: LeadHandler | undefined = options.leadHandler;
  let retries: { stop(): void } | undefined;
  const store = new FileLeadStore(options.outboxPath ?? configFromEnv().outboxPath);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (options.watcher && path === EVENTS_PATH) return options.watcher.events(req, res);
    if (options.watcher && path === RELOAD_SCRIPT_PATH) {
      res.writeHead(200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(RELOAD_JS);
      return;
    }
    if (apiPath && path === HEALTH_PATH) return void health(store, res).catch(() => res.end());
    // The site and its endpoint are under its folder (a form posts to /myrepo/api/lead).
    const site = underFolder(basePath(), req, res, headerRules);
    if (!site) return;
    const work =
      apiPath && lead && (site === apiPath || site === `${apiPath}/`)
        ? handleNode(lead, req, res)
        : serveStatic(req, res);
    work.catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const urls = reachableAt(address, port);
  const url = urls[0] ?? `http://127.0.0.1:${port}`;
  if (apiPath && !lead) {
    const service = createLeadService({
      config: configFromEnv(process.env, {
        siteOrigin: [...urls, `http://localhost:${port}`, builtOrigin(options.dir)].join(','),
        basePath: basePath(),
      }),
      log: options.log,
    });
    lead = service.handle;
    if (!options.noRetries) {
      retries = service.startRetrying();
      server.on('close', () => retries?.stop());
    }
  }
  return { server, url, urls };
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

/** The built site's folder (see basePathOf), read again whenever its home page changes. */
function builtBasePath(dir: string): () => string {
  let seen = '';
  let folder = '';
  return () => {
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

/**
 * A site served under a folder (/myrepo/), as GitHub Pages serves a project site: the request's
 * path is made the site's own (/myrepo/faq/ is /faq/) for the handlers after, which know nothing
 * of the folder; what they answer is put back under it (a redirect's Location), and `_headers`
 * rules, written under the folder, are matched against the path as requested. A path outside
 * the folder is not the site's (404); the folder without its slash is sent to it. Returns the
 * site's path, or null when this answered.
 */
function underFolder(
  folder: string,
  req: IncomingMessage,
  res: ServerResponse,
  rules: () => ReturnType<typeof parseHeadersFile>,
): string | null {
  const [requested = '/', query] = (req.url ?? '/').split(/\?(.*)/s);
  if (!folder) return requested;
  if (requested === folder) {
    res.writeHead(301, { Location: `${folder}/${query ? `?${query}` : ''}` }).end();
    return null;
  }
  if (!requested.startsWith(`${folder}/`)) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`Not Found: this site is served under ${folder}/\n`);
    return null;
  }
  const own = requested.slice(folder.length);
  req.url = own + (query ? `?${query}` : '');
  const headers = Object.fromEntries(headersFor(rules(), requested));
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: OutgoingHttpHeaders,
  ) => ServerResponse;
  res.writeHead = ((status: number, given?: OutgoingHttpHeaders) => {
    const merged: OutgoingHttpHeaders = { ...given, ...headers };
    const location = merged.Location ?? merged.location;
    if (typeof location === 'string' && location.startsWith('/') && !location.startsWith('//')) {
      delete merged.location;
      merged.Location = `${folder}${location}`;
    }
    return writeHead(status, merged);
  }) as ServerResponse['writeHead'];
  return own;
}

/** The `_headers` rules of the served folder, read again whenever the file changes. */
function cachedRules(file: string): () => ReturnType<typeof parseHeadersFile> {
  let seen = '';
  let rules: ReturnType<typeof parseHeadersFile> = [];
  return () => {
    const info = statSync(file, { throwIfNoEntry: false });
    const stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : '';
    if (stamp !== seen) {
      rules = info ? parseHeadersFile(readFileSync(file, 'utf8')) : [];
      seen = stamp;
    }
    return rules;
  };
}

/** Up, and how many leads wait for the CRM: no personal data, nothing that needs a token. */
async function health(store: LeadStore, res: ServerResponse): Promise<void> {
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  };
  try {
    const waiting = (await store.waiting()).length;
    res.writeHead(200, headers).end(JSON.stringify({ status: 'ok', outbox: { waiting } }));
  } catch (err) {
    res
      .writeHead(503, headers)
      .end(
        JSON.stringify({ status: 'error', error: `outbox unreadable: ${(err as Error).message}` }),
      );
  }
}
