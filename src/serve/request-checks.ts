import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a request must be before the server looks anything up for it, on the open internet.
 * Paths are bounded so that no request costs more than a few short lookups: the bundled site's
 * files are at most four segments down (`fr/<city>/<page>/index.html`), their paths at most
 * 70 bytes; the bounds leave room for the owner's own public files.
 */

/** A request path longer than this (as sent, before decoding) is answered 414. */
export const MAX_PATH_BYTES = 2048;

/** A path deeper than this many segments names no file of a site: 404 without a lookup. */
export const MAX_DEPTH = 16;

/**
 * Whether a Host header names a host: a name or an IPv4 address, or an IPv6 one in brackets,
 * with an optional port, as RFC 9110 (7.2) and the URL standard read it. A missing one is
 * allowed (HTTP/1.0; Node itself answers an HTTP/1.1 request without one with 400).
 */
function validHost(host: string | undefined): boolean {
  if (host === undefined || host === lastGood) return true;
  if (host.length > 261 || !HOST.test(host)) return false;
  try {
    // What the lead endpoint's adapter makes of it: a URL, or a 500 before this check.
    if (new URL(`http://${host}/`).host === '') return false;
  } catch {
    return false;
  }
  lastGood = host;
  return true;
}

/** The last Host found good: a site's requests name the same one, checked once, not each time. */
let lastGood: string | undefined;

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_~-][A-Za-z0-9._~-]*)(?::\d{1,5})?$/;

/** Answers 400 to a request whose Host is not one (see validHost); true when it did. */
export function refuseBadHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (validHost(req.headers.host)) return false;
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end('Bad Request: invalid Host header\n');
  return true;
}

/**
 * Whether a file's path inside the site (with forward slashes, no leading slash) may be served:
 * no dotfile or dot folder (`.git`, `.env`) but `.well-known` at the top, where RFC 8615 puts
 * site metadata, and no empty segment (`a//b`). The hosts' own configuration files are checked
 * by the caller.
 */
export function servableRel(rel: string): boolean {
  let start = 0;
  for (;;) {
    const end = rel.indexOf('/', start);
    const stop = end < 0 ? rel.length : end;
    if (stop === start) return false;
    if (rel.charCodeAt(start) === DOT && !(start === 0 && rel.startsWith(WELL_KNOWN))) return false;
    if (end < 0) return true;
    start = end + 1;
  }
}

const DOT = 46;
const WELL_KNOWN = '.well-known/';

/** How many segments a path (starting with `/`) has: `/a/b/` and `/a/b` have two. */
export function depthOf(pathname: string): number {
  let n = 0;
  for (let at = pathname.indexOf('/'); at >= 0; at = pathname.indexOf('/', at + 1))
    if (at + 1 < pathname.length) n++;
  return n;
}
