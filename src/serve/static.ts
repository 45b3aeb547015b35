import { createReadStream, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { type HeaderRule, headersFor, parseHeadersFile } from './headers-file.js';
import { hostAnswer } from './host-rules.js';

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

/** Files the hosts read as configuration and never serve. */
const HOST_CONFIG = new Set(['_headers', '_redirects']);

/**
 * The request path decoded, or null for one that is malformed or could leave the root: checked
 * before any normalising could hide a dot segment.
 */
export function safePath(rawPath: string): string | null {
  if (!rawPath.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((s) => s === '..' || s === '.')) return null;
  return decoded;
}

/**
 * A request handler serving a built site folder the way Cloudflare Pages serves it (the
 * strictest of the common hosts, see host-rules.ts): `/x/` is the page, `/x` and
 * `/x/index.html` redirect to it, unknown paths get 404.html with status 404, and the folder's
 * `_headers` rules apply to every answer. `inject` is markup added before </body> of every HTML
 * answer (watch mode's reload script).
 */
export function createStaticHandler(dir: string, inject?: string) {
  const root = path.resolve(dir);
  const headerRules = cachedHeaderRules(path.join(root, '_headers'));
  const isFile = (rel: string) => !HOST_CONFIG.has(rel) && isFileAt(path.join(root, rel));
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const [rawPath = '/', query] = (req.url ?? '/').split(/\?(.*)/s);
    const decoded = safePath(rawPath);
    if (decoded === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad Request\n');
      return;
    }
    const answer = hostAnswer('cloudflare-pages', decoded, isFile);
    const headers = Object.fromEntries(headersFor(headerRules(), rawPath));
    if ('location' in answer) {
      res.writeHead(answer.status, {
        ...headers,
        Location: encodeURI(answer.location) + (query ? `?${query}` : ''),
      });
      res.end();
      return;
    }
    if (answer.file === null) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not Found\n');
      return;
    }
    const file = path.join(root, answer.file);
    const size = statSync(file).size;
    return send(req, res, file, size, answer.status, headers, inject);
  };
}

/** True for a file; false for anything else, including a path through a file (ENOTDIR). */
function isFileAt(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The `_headers` rules, read again whenever the file changes (a rebuild in watch mode). */
function cachedHeaderRules(file: string): () => HeaderRule[] {
  let seen = '';
  let rules: HeaderRule[] = [];
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

async function send(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  size: number,
  status: number,
  headers: Record<string, string>,
  inject?: string,
) {
  // The hosts' default: every answer is revalidated unless a rule says otherwise.
  const base = {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Content-Type': contentType(file),
    ...headers,
  };
  if (inject && file.endsWith('.html')) {
    const html = (await readFile(file, 'utf8')).replace('</body>', `${inject}</body>`);
    res.writeHead(status, {
      ...base,
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  res.writeHead(status, { ...base, 'Content-Length': size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
