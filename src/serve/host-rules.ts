/**
 * How the common static hosts answer a request for a built folder, as they document it (or, where
 * they do not, as their own code or repeatable tests show): which file they serve, or where they
 * redirect. The preview server answers as Cloudflare Pages does, the strictest of the three, and
 * the site checks ask each host's rules that every link is served without a redirect.
 *
 * - Cloudflare Pages ("Serving Pages"): `/about/index.html` and `/contact.html` are redirected
 *   to `/about/` and `/contact`; a folder's page answers at `/about/`, and `/about` is
 *   redirected there (308, the query kept: workers-sdk's asset server).
 * - Netlify (Pretty URLs, on by default): `/about` is redirected to `/about/` (301);
 *   `/about/index.html` and `/contact.html` are served as they are.
 * - GitHub Pages: `/about` is redirected to `/about/` (301); `/about/index.html`,
 *   `/contact.html` and `/contact` are served.
 *
 * Every host answers an unknown path with a `404.html` and status 404: Cloudflare Pages the
 * nearest one up the path's folders ("Not Found behavior": a French `/fr/404.html` answers for
 * `/fr/...`), Netlify and GitHub Pages the site's top one.
 */
export type Host = 'cloudflare-pages' | 'netlify' | 'github-pages';

export const HOSTS: readonly Host[] = ['cloudflare-pages', 'netlify', 'github-pages'];

type HostAnswer =
  | { status: 200; file: string }
  | { status: 301 | 308; location: string }
  | { status: 404; file: string | null };

/**
 * The host's answer to a GET of `pathname` (decoded, starting with `/`). `isFile` says whether
 * the site has a file at a path relative to its root, with forward slashes. A redirect's
 * location is a decoded path: the caller encodes it and keeps the request's query on it.
 */
export function hostAnswer(
  host: Host,
  pathname: string,
  isFile: (rel: string) => boolean,
): HostAnswer {
  const redirect = (to: string): HostAnswer => ({
    status: host === 'cloudflare-pages' ? 308 : 301,
    location: to,
  });
  const serve = (file: string): HostAnswer => ({ status: 200, file });
  const rel = pathname.slice(1);
  const cloudflare = host === 'cloudflare-pages';

  if (pathname.endsWith('/')) {
    if (isFile(`${rel}index.html`)) return serve(`${rel}index.html`);
    // Only Cloudflare sends `/contact/` on to `/contact.html`'s address.
    if (cloudflare && rel && isFile(`${rel.slice(0, -1)}.html`))
      return redirect(`/${rel.slice(0, -1)}`);
    return notFound(host, pathname, isFile);
  }
  const base = rel.split('/').at(-1) ?? '';
  if (cloudflare && base === 'index.html' && isFile(rel))
    return redirect(pathname.slice(0, -'index.html'.length));
  if (cloudflare && base.endsWith('.html') && isFile(rel))
    return redirect(pathname.slice(0, -'.html'.length));
  if (isFile(rel)) return serve(rel);
  if (isFile(`${rel}.html`)) return serve(`${rel}.html`);
  if (isFile(`${rel}/index.html`)) return redirect(`${pathname}/`);
  return notFound(host, pathname, isFile);
}

function notFound(host: Host, pathname: string, isFile: (rel: string) => boolean): HostAnswer {
  if (host === 'cloudflare-pages') {
    // Each folder on the path, deepest first (`/a/b/c`: a/b, then a): one look a folder, each
    // name cut from the path as it is, never joined again from its parts.
    for (let end = pathname.lastIndexOf('/'); end > 0; end = pathname.lastIndexOf('/', end - 1)) {
      const file = `${pathname.slice(1, end)}/404.html`;
      if (isFile(file)) return { status: 404, file };
    }
  }
  return { status: 404, file: isFile('404.html') ? '404.html' : null };
}
