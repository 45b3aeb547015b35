import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv } from '../lead/config.js';
import { createLeadHandler, type LeadHandler } from '../lead/handler.js';
import type { Log } from '../lead/log.js';
import { handleNode } from '../lead/node.js';
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
  log?: Log;
  /** Watch mode: serves the reload channel and injects its script into HTML answers. */
  watcher?: Watcher;
}

/**
 * The preview server: the built folder, served the way a static host serves it, with the lead
 * endpoint mounted at its path. Without SITE_ORIGIN the endpoint accepts this server's origin.
 */
export async function startServer(options: ServeOptions): Promise<{ server: Server; url: string }> {
  const serveStatic = createStaticHandler(options.dir, options.watcher ? RELOAD_SCRIPT : undefined);
  const apiPath = options.apiPath === undefined ? '/api/lead' : options.apiPath;
  let lead: LeadHandler | undefined = options.leadHandler;
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
    const work =
      apiPath && lead && (path === apiPath || path === `${apiPath}/`)
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
  const host = address.includes(':') ? `[${address}]` : address;
  const url = `http://${host}:${port}`;
  if (apiPath && !lead) {
    const local = [url, `http://localhost:${port}`].join(',');
    lead = createLeadHandler({
      config: configFromEnv(process.env, { siteOrigin: local }),
      log: options.log,
    });
  }
  return { server, url };
}
