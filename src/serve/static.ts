import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileIndex } from './file-index.js';
import { type HeaderRule, headersFor, parseHeadersFile } from './headers-file.js';
import { hostAnswer } from './host-rules.js';
import {
  depthOf,
  MAX_DEPTH,
  MAX_PATH_BYTES,
  refuseBadHost,
  servableRel,
} from './request-checks.js';
import { sendFile } from './send-file.js';

/** Files the hosts read as configuration and never serve. */
const HOST_CONFIG = new Set(['_headers', '_redirects']);

interface StaticOptions {
  /**
   * Where the site is served: `/` (the default), or a path such as `/myrepo/` for a site whose
   * URL has one (a GitHub Pages project site). Paths outside it answer 404; the path itself
   * without its last slash redirects to it. A function is asked again on each request (serve
   * follows the built site's own folder across rebuilds). The folder's `_headers` rules match
   * the path as requested (a site built for a folder writes its rules under it) and the path
   * inside the site (a site built for the root, mounted under a path).
   */
  basePath?: string | (() => string);
  /** Markup added before </body> of every HTML answer (watch mode's reload script). */
  inject?: string;
}

/**
 * The request path decoded, or null for one that is malformed or could leave the root: checked
 * before any normalising could hide a dot segment.
 */
function safePath(rawPath: string): string | null {
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
 * `/x/index.html` redirect to it, unknown paths get the nearest 404.html with status 404, and
 * the folder's `_headers` rules apply to every answer. Fit for the open internet: only files
 * inside the folder, no dotfiles but `.well-known`, bounded paths, a Host that is one, and what
 * `send` gives a file (ETag, Last-Modified, 304, Range), with the `.br` and `.gz` files of
 * `generate --precompress` sent to browsers that accept them (see send-file.ts).
 */
export function createStaticHandler(dir: string, options: StaticOptions = {}) {
  const root = path.resolve(dir);
  const given = options.basePath;
  const fixed = slashed(typeof given === 'function' ? '/' : given);
  const baseNow = typeof given === 'function' ? () => slashed(given()) : () => fixed;
  const headerRules = cachedHeaderRules(path.join(root, '_headers'));
  // Watch mode (a script injected) sees a rebuild's files at once; a served site trusts a look for a second.
  const index = fileIndex(root, insideRoot(root), options.inject ? 0 : undefined);
  const inside = (rel: string) => index.isFile(rel);
  const ruleHeaders = headersCache();
  const isFile = (rel: string) => !HOST_CONFIG.has(rel) && servableRel(rel) && inside(rel);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    if (refuseBadHost(req, res)) return;
    const base = baseNow();
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const rawPath = mark < 0 ? url : url.slice(0, mark);
    const query = mark < 0 ? '' : url.slice(mark);
    if (rawPath.length > MAX_PATH_BYTES) {
      res.writeHead(414, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('URI Too Long\n');
      return;
    }
    const decoded = safePath(rawPath);
    if (decoded === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad Request\n');
      return;
    }
    const rules = headerRules();
    const inSite = decoded.startsWith(base);
    if (!inSite && `${decoded}/` === base)
      return redirect(res, base, query, headersFor(rules, '/'));
    // The path inside the site: what the host rules and the _headers patterns see.
    const sitePath = inSite ? decoded.slice(base.length - 1) : null;
    const headers = ruleHeaders(rules, base, rawPath, sitePath);
    const answer =
      sitePath !== null && depthOf(sitePath) <= MAX_DEPTH
        ? hostAnswer('cloudflare-pages', sitePath, isFile)
        : { status: 404 as const, file: isFile('404.html') ? '404.html' : null };
    if ('location' in answer) return redirect(res, base + answer.location.slice(1), query, headers);
    if (answer.file === null) {
      res.writeHead(404, {
        ...Object.fromEntries(headers),
        'Content-Type': 'text/plain; charset=utf-8',
      });
      res.end('Not Found\n');
      return;
    }
    return sendFile(req, res, {
      root,
      rel: answer.file,
      status: answer.status,
      headers,
      inject: options.inject,
      isFile,
      known: (rel) => index.known(rel),
    });
  };
}

/**
 * The `_headers` rules' headers for a request, computed once for a path and its rules (the
 * patterns are regular expressions tried in turn): the pages a site is asked for are few, and
 * the cache is emptied when it holds too many (every path is the client's to choose).
 */
function headersCache() {
  let seen: { rules: HeaderRule[]; base: string } | null = null;
  let byPath = new Map<string, Map<string, string>>();
  return (rules: HeaderRule[], base: string, rawPath: string, sitePath: string | null) => {
    if (seen?.rules !== rules || seen.base !== base || byPath.size >= CACHED_PATHS) {
      seen = { rules, base };
      byPath = new Map();
    }
    const key = `${rawPath}\n${sitePath}`;
    // The same map for the same path, never changed once made: the answer's headers built from
    // it are kept with it (see send-file.ts).
    const known = byPath.get(key);
    if (known) return known;
    const headers = headersFor(rules, rawPath);
    if (base !== '/') {
      const inside = rawPath.startsWith(base) ? rawPath.slice(base.length - 1) : sitePath;
      for (const [name, value] of inside ? headersFor(rules, inside) : []) {
        if (!headers.has(name)) headers.set(name, value);
      }
    }
    byPath.set(key, headers);
    return headers;
  };
}

const CACHED_PATHS = 10_000;

/** `basePath` with a slash at each end: `/`, `/myrepo/`. */
function slashed(basePath = '/'): string {
  const trimmed = basePath.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

/**
 * A redirect to a path of the site, the query kept. The location is always a path that starts
 * with one slash: `//x` or `/\x` would be read by a browser as another host.
 */
function redirect(
  res: ServerResponse,
  location: string,
  query: string,
  headers: Map<string, string>,
): void {
  if (!/^\/(?![/\\])/.test(location)) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not Found\n');
    return;
  }
  res.writeHead(308, { ...Object.fromEntries(headers), Location: encodeURI(location) + query });
  res.end();
}

/**
 * Whether a file of the site (a path relative to `root`, forward slashes) is a file inside the
 * folder once every symbolic link on the way is followed: a link out of it is served as nothing,
 * like a missing file. Each segment is looked at without following it (one lstat a segment, the
 * site's paths being a few deep); only a path with a link on it pays for its real path, and the
 * root's own is looked up again when a file seems outside it (the folder may be a link replaced
 * meanwhile, as a deploy does).
 */
function insideRoot(root: string): (rel: string) => boolean {
  let realRoot = '';
  const within = (real: string) => real.startsWith(realRoot) && real[realRoot.length] === path.sep;
  const linkedInside = (file: string) => {
    if (!statSync(file).isFile()) return false;
    const real = realpathSync.native(file);
    if (realRoot && within(real)) return true;
    realRoot = realpathSync.native(root);
    return within(real);
  };
  return (rel) => {
    try {
      const segments = rel.split('/');
      let at = root;
      for (const [i, segment] of segments.entries()) {
        at += path.sep + segment;
        const info = lstatSync(at);
        if (info.isSymbolicLink()) return linkedInside(path.join(root, rel));
        if (i === segments.length - 1) return info.isFile();
        if (!info.isDirectory()) return false;
      }
      return false;
    } catch {
      // Missing, or a path through a file (ENOTDIR).
      return false;
    }
  };
}

/**
 * The `_headers` rules, read again whenever the file changes (a rebuild in watch mode): looked at
 * once a second at most: one file-system call a request fewer.
 */
function cachedHeaderRules(file: string): () => HeaderRule[] {
  let seen = '';
  let rules: HeaderRule[] = [];
  let checked = -Infinity;
  return () => {
    const now = performance.now();
    if (now - checked < RULES_CHECK_MS) return rules;
    checked = now;
    const info = statSync(file, { throwIfNoEntry: false });
    const stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : '';
    if (stamp !== seen) {
      rules = info ? parseHeadersFile(readFileSync(file, 'utf8')) : [];
      seen = stamp;
    }
    return rules;
  };
}

const RULES_CHECK_MS = 1000;
