/**
 * A source's address as a reader should get it, for as long as the page lives: the publisher's
 * own host (not a development, staging or production-internal one, not a bare IP address, not
 * a malformed name), the article itself (not its AMP copy, not a listing page whose content
 * moves as articles are added), and encyclopedia text at wikipedia.org itself. Each is a data
 * error naming the source (see mirrors.ts for copy sites).
 */

/** First labels of hosts that are not the public site: development, test, staging, internal. */
const INTERNAL_LABEL =
  /^(dev|devel|development|test|tests|testing|staging|stage|stg|preprod|uat|qa|beta|[a-z]+-(prd|prod|stg|dev))$/;
/** Labels elsewhere in a host that mark a staging or preview copy. */
const INTERNAL_PART = /(^|\.)[a-z0-9-]*-(stg|staging)\./;

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** An AMP copy: on an amp. host, under /amp or /lite/story, or asked for with amp=. */
function isAmp(url: URL): boolean {
  return (
    url.hostname.startsWith('amp.') ||
    /\/amp\/?$|\/amp\/|\/lite\/story\//.test(url.pathname) ||
    /(^|&)(amp|outputType=amp)(=|&|$)/.test(url.search.slice(1))
  );
}

/** A listing page: the nth page of an author, tag or category, or a ?page= of a list. */
function isListing(url: URL): boolean {
  return (
    /\/(author|tag|category)\/[^/]+\/page\/\d+\/?$/.test(url.pathname) ||
    /(^|&)page=\d+(&|$)/.test(url.search.slice(1))
  );
}

/** Publishers that name encyclopedia text as Wikipedia's (or call it encyclopedia text). */
const ENCYCLOPEDIA_TEXT = /wikip[eé]dia|encyclop(edia|édie)[^)]*\btext/i;

/** Why a source's address will not last or is not its publisher's, or null. */
export function sourceFormProblem(source: { publisher: string; url: string }): string | null {
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    return null; // the URL's own check reports it
  }
  const host = url.hostname.toLowerCase();
  if (host.endsWith('.') || host.includes('..'))
    return `has a malformed host (${host}): cite the publisher's page at its own name`;
  if (IPV4.test(host) || host.startsWith('['))
    return `is at a bare IP address (${host}), not its publisher's name: cite the publisher's own page`;
  const first = host.split('.')[0] ?? '';
  if (INTERNAL_LABEL.test(first) || INTERNAL_PART.test(host))
    return `is on ${host}, an internal, development or test host: cite the page at the publisher's public host`;
  if (isAmp(url)) return "is an AMP copy: cite the article's own (canonical) page";
  if (isListing(url))
    return "is a listing page whose content moves as articles are added: cite the article's own page";
  const wikipedia = /(^|\.)wikipedia\.org$/.test(host);
  if (!wikipedia && ENCYCLOPEDIA_TEXT.test(source.publisher))
    return `gives encyclopedia text on ${host}: cite the article at wikipedia.org itself, as "Wikipedia"`;
  if (!wikipedia && /^\/wiki\/[^/]+$/.test(url.pathname) && !/wiki/.test(host))
    return `is a Wikipedia article's address on ${host}, a copy: cite the article at wikipedia.org itself`;
  return null;
}
