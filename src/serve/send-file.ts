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
export function contentType(file: string): string {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.xml') return 'application/xml; charset=utf-8';
  return mime.contentType(ext) || 'application/octet-stream';
}

export interface FileAnswer {
  root: string;
  /** The file, relative to root, forward slashes. */
  rel: string;
  status: 200 | 404;
  /** The `_headers` rules' headers for the request. */
  headers: Map<string, string>;
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
  // The hosts' default: every answer is revalidated unless a rule says otherwise.
  const headers: Record<string, string> = {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Content-Type': contentType(rel),
    ...Object.fromEntries(answer.headers),
  };
  if (inject && rel.endsWith('.html')) {
    const html = (await readFile(path.join(root, rel), 'utf8')).replace(
      '</body>',
      `${inject}</body>`,
    );
    res.writeHead(status, {
      ...headers,
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  let sent = rel;
  if (isCompressible(rel)) {
    headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
    const form = encodingFor(req, rel, answer.isFile);
    if (form) {
      sent = rel + form.suffix;
      headers['Content-Encoding'] = form.name;
    }
  }
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const ok = status === 200;
  if (ok && plainGet(req)) {
    const info = answer.known?.(sent);
    if (info) return sendKnown(req, res, path.join(root, sent), info);
  }
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
): Promise<void> {
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Last-Modified', info.mtime.toUTCString());
  res.setHeader('ETag', `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"`);
  res.setHeader('Content-Length', info.size);
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

/**
 * The compressed form to send of `rel`: the one the request's Accept-Encoding weighs most (brotli
 * first between equals) among those written beside it; null for the file as it is.
 */
function encodingFor(
  req: IncomingMessage,
  rel: string,
  isFile: (rel: string) => boolean,
): (typeof ENCODINGS)[number] | null {
  if (!req.headers['accept-encoding']) return null;
  const negotiator = new Negotiator(req);
  let names = ENCODING_NAMES;
  // Most requests find their first choice there: one look. Else the next best of those there.
  for (;;) {
    const chosen = negotiator.encoding(names, { preferred: names });
    const form = ENCODINGS.find((e) => e.name === chosen);
    if (!form) return null;
    if (isFile(rel + form.suffix)) return form;
    names = names.filter((n) => n !== chosen);
  }
}

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
