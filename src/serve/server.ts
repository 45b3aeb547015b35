import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStaticHandler } from './static.js';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
}

/** The preview server: the built folder, served the way a static host serves it. */
export async function startServer(options: ServeOptions): Promise<{ server: Server; url: string }> {
  const handle = createStaticHandler(options.dir);
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
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
  return { server, url: `http://${host}:${port}` };
}
