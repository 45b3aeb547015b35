import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request path to a file under root the way a static CDN does: /x, /x/ and /x/index.html
 * all serve x/index.html. Returns null for a path that is malformed or tries to leave root.
 */
export function candidates(root: string, rawPath: string): string[] | null {
  if (!rawPath.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').slice(1);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const base = path.join(root, ...segments);
  if (base !== root && !base.startsWith(root + path.sep)) return null;
  if (decoded.endsWith('/')) return [path.join(base, 'index.html')];
  return [base, path.join(base, 'index.html')];
}

/**
 * A request handler serving a built site folder; unknown paths get 404.html with status 404.
 * `inject` is markup added before </body> of every HTML answer (watch mode's reload script).
 */
export function createStaticHandler(dir: string, inject?: string) {
  const root = path.resolve(dir);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    // Reject before any URL normalisation can hide a dot segment.
    const files = candidates(root, rawPath);
    if (!files) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad Request\n');
      return;
    }
    for (const file of files) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) return send(req, res, file, info.size, 200, inject);
    }
    const notFound = path.join(root, '404.html');
    const info = await stat(notFound).catch(() => null);
    if (info?.isFile()) return send(req, res, notFound, info.size, 404, inject);
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not Found\n');
  };
}

async function send(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  size: number,
  status: number,
  inject?: string,
) {
  if (inject && file.endsWith('.html')) {
    const html = (await readFile(file, 'utf8')).replace('</body>', `${inject}</body>`);
    res.writeHead(status, {
      'Content-Type': contentType(file),
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  const immutable = /\/assets\/[^/]+\.[0-9a-f]{10}\.\w+$/.test(file);
  res.writeHead(status, {
    'Content-Type': contentType(file),
    'Content-Length': size,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
