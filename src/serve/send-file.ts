import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import mime from 'mime-types';
import Negotiator from 'negotiator';
import send from 'send';
import { ENCODINGS, isCompressible } from '../compression.js';
import type { KnownFile } from './file-index.js';

/**
 * The Content-Type of a file, from mime-types (the jshttp project's table, generated from IANA's
 * registry and the web servers' own, and kept current), `; charset=utf-8` on text. XML is
 * declared UTF-8 too: the build writes it so, and the hosts say it.
 */
function contentType(file: string): string {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.xml') return 'application/xml; charset=utf-8';
  return mime.contentType(ext) || 'application/octet-stream';
}

interface FileAnswer {
  root: string;
  /** The file, relative to root, forward slashes. */
  rel: string;
  status: 200 | 404;
  /** The `_headers` rules' headers for the request: the same map for the same path and rules. */
  headers: ReadonlyMap<string, string>;
  inject?: string;
  /** Whether a path relative to root is a file that may be served (see createStaticHandler). */
  isFile: (rel: string) => boolean;
  /** A file's size and time when the index knows them (see file-index.ts). */
  known?: (rel: string) => KnownFile | null;
}

/**
 * Sends a file the static handler chose, with `send` (the file sender of Express's static
 * middleware): ETag and Last-Modified, 304 for If-None-Match and If-Modified-Since, 412 for a
 * failed If-Match or If-Unmodified-Since, Range with 206 and 416, and If-Range. Of a
 * compressible file (see COMPRESSIBLE) it sends the brotli or gzip form written beside it when
 * the request's Accept-Encoding takes it (weights honoured, brotli first between equals), with
 * `Vary: Accept-Encoding` either way so that a cache keeps the forms apart. A 404 page is sent
 * whole, with no validators and no ranges.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  answer: FileAnswer,
): Promise<void> {
  const { root, rel, status, inject } = answer;
  if (inject && rel.endsWith('.html')) {
    const html = (await readFile(path.join(root, rel), 'utf8')).replace(
      '</body>',
      `${inject}</body>`,
    );
    res.writeHead(status, {
      ...baseHeaders(rel, answer.headers, null),
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  const form = isCompressible(rel) ? encodingFor(req, rel, answer.isFile) : null;
  const sent = form ? rel + form.suffix : rel;
  const ok = status === 200;
  if (ok && plainGet(req)) {
    const info = answer.known?.(sent);
    if (info) return sendKnown(req, res, path.join(root, sent), info, answer.headers, rel, form);
  }
  res.statusCode = status;
  for (const [name, value] of Object.entries(baseHeaders(rel, answer.headers, form)))
    res.setHeader(name, value);
  await new Promise<void>((resolve) => {
    send(req, `/${sent.split('/').map(encodeURIComponent).join('/')}`, {
      root,
      // Chosen by the handler already: send only sends it.
      dotfiles: 'allow',
      index: false,
      cacheControl: false,
      etag: ok,
      lastModified: ok,
      acceptRanges: ok,
    })
      .on('error', (err: Error & { status?: number; headers?: Record<string, string> }) => {
        failed(res, err);
        resolve();
      })
      // A folder where the file was (a rebuild replaced it): as a file gone.
      .on('directory', () => {
        failed(res, Object.assign(new Error('not a file'), { status: 404 }));
        resolve();
      })
      .on('end', resolve)
      .pipe(res)
      .on('close', resolve);
  });
}

/** A request that asks for the whole file, unconditionally: the one most requests are. */
function plainGet(req: IncomingMessage): boolean {
  const h = req.headers;
  return (
    h.range === undefined &&
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined &&
    h['if-match'] === undefined &&
    h['if-unmodified-since'] === undefined &&
    h['if-range'] === undefined
  );
}

/**
 * The whole file, with the headers `send` gives it (weak ETag of size and time, Last-Modified,
 * Accept-Ranges), from the size and time the index read once: no stat a request. A request with
 * a condition or a range goes to `send`, which judges it.
 */
function sendKnown(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  info: KnownFile,
  rules: ReadonlyMap<string, string>,
  rel: string,
  form: Form | null,
): Promise<void> {
  res.writeHead(200, answerHeaders(info, rules, rel, form));
  if (req.method === 'HEAD' || info.body) {
    res.end(req.method === 'HEAD' ? undefined : info.body);
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    // Its end given, the stream reads no more once it has the file (no read to find the end).
    const stream = createReadStream(file, { start: 0, end: Math.max(0, info.size - 1) });
    stream.on('error', (err) => {
      failed(res, Object.assign(err, { status: 404 }));
      resolve();
    });
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}

type Form = (typeof ENCODINGS)[number];

/**
 * An answer's headers before the file's own: the hosts' default (every answer revalidated unless
 * a rule says otherwise), its type, the `_headers` rules', and of a compressible file
 * `Vary: Accept-Encoding` (so that a cache keeps its forms apart) and the form sent.
 */
function baseHeaders(
  rel: string,
  rules: ReadonlyMap<string, string>,
  form: Form | null,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Content-Type': contentType(rel),
    ...Object.fromEntries(rules),
  };
  if (isCompressible(rel))
    headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
  if (form) headers['Content-Encoding'] = form.name;
  return headers;
}

/**
 * The headers of a whole file's answer, as sendFile builds them for `send` plus what `send` adds
 * (weak ETag of size and time, Last-Modified, Accept-Ranges), made once for a file as it was
 * read and the `_headers` rules of its path, and kept with the file: the same bytes each time.
 */
function answerHeaders(
  info: KnownFile,
  rules: ReadonlyMap<string, string>,
  rel: string,
  form: Form | null,
): string[] {
  const kept = info.answers?.get(rules);
  if (kept) return kept;
  const headers: Record<string, string | number> = baseHeaders(rel, rules, form);
  headers['Accept-Ranges'] = 'bytes';
  headers['Last-Modified'] = info.mtime.toUTCString();
  headers.ETag = `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"`;
  headers['Content-Length'] = info.size;
  const flat = Object.entries(headers).flatMap(([name, value]) => [name, String(value)]);
  info.answers ??= new WeakMap();
  info.answers.set(rules, flat);
  return flat;
}

/**
 * The compressed form to send of `rel`: the one the request's Accept-Encoding weighs most (brotli
 * first between equals) among those written beside it; null for the file as it is.
 */
function encodingFor(
  req: IncomingMessage,
  rel: string,
  isFile: (rel: string) => boolean,
): Form | null {
  const accepted = req.headers['accept-encoding'];
  if (!accepted) return null;
  for (const form of preferenceOf(accepted)) {
    if (form === null) return null;
    if (isFile(rel + form.suffix)) return form;
  }
  return null;
}

/**
 * The forms an Accept-Encoding takes, best first, up to `identity` (null) or the last one it
 * takes: worked out once for a header (browsers send a handful of them), not once a request.
 */
function preferenceOf(accepted: string): readonly (Form | null)[] {
  const known = preferences.get(accepted);
  if (known) return known;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': accepted } });
  const order: (Form | null)[] = [];
  for (let names = ENCODING_NAMES; ; ) {
    const chosen = negotiator.encoding(names, { preferred: names });
    const form = ENCODINGS.find((e) => e.name === chosen) ?? null;
    order.push(form);
    if (!form) break;
    names = names.filter((n) => n !== chosen);
  }
  // The header is the client's to choose: the table is emptied when it holds too many.
  if (preferences.size >= KNOWN_HEADERS) preferences.clear();
  preferences.set(accepted, order);
  return order;
}

const preferences = new Map<string, readonly (Form | null)[]>();
const KNOWN_HEADERS = 1000;

const ENCODING_NAMES = [...ENCODINGS.map((e) => e.name), 'identity'];

/**
 * What `send` refused, answered as it would have: 412 and 416 (with its Content-Range), or 404
 * for a file gone since it was chosen (a rebuild replacing it).
 */
function failed(
  res: ServerResponse,
  err: Error & { status?: number; headers?: Record<string, string> },
) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
  res.writeHead(status, { ...err.headers, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${STATUS_TEXT[status] ?? 'Error'}\n`);
}

const STATUS_TEXT: Record<number, string> = {
  404: 'Not Found',
  412: 'Precondition Failed',
  416: 'Range Not Satisfiable',
  500: 'Internal Server Error',
};
