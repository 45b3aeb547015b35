/**
 * Every path and URL form of the site, in one place (DESIGN.md "URLs"). Pure, so the browser
 * script, the preview server and the tests use the same rules as the build.
 *
 * A page is written as a folder's `index.html` and addressed as `/x/`: GitHub Pages, Cloudflare
 * Pages and Netlify serve that form directly and answer `/x` with a redirect to it. So every
 * link, canonical URL, breadcrumb and sitemap entry ends in a slash; the home page is `/`.
 * A few pages are single files (`/404.html`) and keep their name.
 */

import type { Phone } from './site/phone.js';

/** Something with a slug: a city, an area, a post; or the slug itself. */
type Slugged = string | { readonly slug: string };

const slugOf = (s: Slugged) => (typeof s === 'string' ? s : s.slug);

/** The path of the page made of these segments: `/a/b/`, or `/` for none. */
export function pagePath(...segments: readonly Slugged[]): string {
  return segments.length === 0 ? '/' : `/${segments.map(slugOf).join('/')}/`;
}

/** Site pages that stand at the top level. */
export type TopPage =
  | 'about'
  | 'services'
  | 'faq'
  | 'contact'
  | 'privacy'
  | 'terms'
  | 'sitemap'
  | 'blog'
  | 'confirmation'
  | 'form-error';

/**
 * The site's paths, as routes, files and the sitemap know them: `/`, `/faq/`. A site served from
 * a folder (a GitHub Pages project site, https://user.github.io/myrepo/) writes its links under
 * that folder: see linksUnder.
 */
export const links = {
  home: '/',
  page: (name: TopPage) => pagePath(name),
  city: (city: Slugged) => pagePath(city),
  /** A page under a city: `/toronto/public-adjusters/`, `/toronto/leslieville/`. */
  cityPage: (city: Slugged, segment: Slugged) => pagePath(city, segment),
  post: (post: Slugged) => pagePath('blog', post),
  sitemapXml: '/sitemap.xml',
  notFound: '/404.html',
  favicon: '/favicon.svg',
  /** A page with its query: `/confirmation/?city=Toronto`. Empty values are left out. */
  withQuery(path: string, query: Readonly<Record<string, string | number>>): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== '') params.set(k, String(v));
    const q = params.toString();
    return q ? `${path}?${q}` : path;
  },
  /** A call link (RFC 3966): `tel:+14165550123`, with `;ext=22` for an extension. */
  tel: (phone: Phone) => `tel:${phone.e164}${phone.extension ? `;ext=${phone.extension}` : ''}`,
  /** The claim form's id on a page that has it: links within the page go to `#` it. */
  claimFormId: 'claim-form',
  mailto: (email: string) => `mailto:${email}`,
  /**
   * A path of the site as a link, under the folder the site is served from; an address of its
   * own (a lead endpoint elsewhere) as it is.
   */
  href: (p: string) => p,
};

/** The output file of a page path: `/` -> index.html, `/a/b/` -> a/b/index.html, `/404.html` -> 404.html. */
export function fileForPath(p: string): string {
  if (p === '/') return 'index.html';
  if (p.endsWith('/')) return `${p.slice(1)}index.html`;
  return p.slice(1);
}

/**
 * The reverse: the path a built file answers at, the way the hosts serve it (a folder's
 * index.html at the folder with its slash). `rel` uses forward slashes.
 */
export function pathForFile(rel: string): string {
  if (rel === 'index.html') return '/';
  if (rel.endsWith('/index.html')) return `/${rel.slice(0, -'index.html'.length)}`;
  return `/${rel}`;
}

/** An absolute URL on the site: its base URL (its folder's trailing slash or not) and a path. */
export function absoluteUrl(baseUrl: string, p: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${p}`;
}

/**
 * The folder a site is served from, from its base URL: `` for https://www.example.ca,
 * `/myrepo` for https://user.github.io/myrepo/. Every link of the site starts with it.
 */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}

/** Hashed assets live here; their names never change meaning, so they are cached for a year. */
export const ASSETS_DIR = 'assets';

/** An asset's output file: `assets/app.0123456789.js`, the hash being 10 hex digits. */
export const assetFile = (name: string, hash: string, ext: string) =>
  `${ASSETS_DIR}/${name}.${hash.slice(0, 10)}.${ext}`;

/** A URL path that names a hashed asset. */
export const HASHED_ASSET = /^\/assets\/[^/]+\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** How a language's paths are made from English ones (see src/i18n/lang.ts). */
export interface LanguagePaths {
  /** The first segment of its pages: `fr`. */
  prefix: string;
  /** An English route segment to this language's: `public-adjusters` -> `experts-en-sinistre`. */
  segments: Readonly<Record<string, string>>;
  /** Whether a page under this city (`/{city}/`, `/{city}/{segment}/`) is made in the language. */
  has(city: string, segment?: string): boolean;
  /** Top-level pages (`faq`, `blog`...) the language has. */
  topPages: ReadonlySet<string>;
}

/**
 * The path of an English page's translation, or null where the language has none: a prefix,
 * and each route segment by its name in the language (city and area slugs stay as they are).
 * `/` -> `/fr/`, `/faq/` -> `/fr/faq/`, `/montreal/public-adjusters/` ->
 * `/fr/montreal/experts-en-sinistre/`, `/404.html` -> `/fr/404.html`.
 */
export function localizePath(p: string, lang: LanguagePaths): string | null {
  const root = `/${lang.prefix}/`;
  if (p === '/') return root;
  if (!p.endsWith('/')) return lang.topPages.has(p.slice(1)) ? `${root}${p.slice(1)}` : null;
  const [first = '', second, ...rest] = p.slice(1, -1).split('/');
  if (rest.length > 0) return null;
  const seg = (s: string) => lang.segments[s] ?? s;
  if (lang.topPages.has(first)) return second === undefined ? `${root}${seg(first)}/` : null;
  if (!lang.has(first, second)) return null;
  return second === undefined ? `${root}${first}/` : `${root}${first}/${seg(second)}/`;
}

export type Links = typeof links;

/**
 * The paths of a page in `lang`: to the page's translation where the language has one, else to
 * the English page (a French page's link to Toronto goes to Toronto's page).
 */
export function linksIn(lang: LanguagePaths | null): Links {
  if (!lang) return links;
  const to = (p: string) => localizePath(p, lang) ?? p;
  return {
    ...links,
    home: to(links.home),
    page: (name) => to(links.page(name)),
    city: (city) => to(links.city(city)),
    cityPage: (city, segment) => to(links.cityPage(city, segment)),
    notFound: to(links.notFound),
  };
}

/**
 * The links pages write: `paths` under the site's folder (`basePath`, see basePathOf). What a
 * page links to, loads, posts to or is sent to goes through these; paths without the folder
 * stay what routes, files, canonical URLs (made from the base URL, folder included) and the
 * lead's `page` field use.
 */
export function linksUnder(basePath: string, paths: Links): Links {
  if (!basePath) return paths;
  const under = (p: string) => `${basePath}${p}`;
  return {
    ...paths,
    home: under(paths.home),
    page: (name) => under(paths.page(name)),
    city: (city) => under(paths.city(city)),
    cityPage: (city, segment) => under(paths.cityPage(city, segment)),
    post: (post) => under(paths.post(post)),
    sitemapXml: under(paths.sitemapXml),
    notFound: under(paths.notFound),
    favicon: under(paths.favicon),
    href: (p) => underBase(basePath, p),
  };
}

/** A site path as a link under `basePath`; an address of its own (`https://…`) as it is. */
export const underBase = (basePath: string, p: string) =>
  p.startsWith('/') && !p.startsWith('//') ? `${basePath}${p}` : p;

/**
 * Where the lead endpoint sends a visitor whose form was posted without JavaScript, in the
 * language of the page it came from. The endpoint runs apart from the build (a serverless
 * function), so these are fixed here; the French catalogue's segments must lead to them
 * (checked when it is loaded).
 */
export const LEAD_PAGES = {
  en: { confirmation: '/confirmation/', error: '/form-error/' },
  fr: { confirmation: '/fr/confirmation/', error: '/fr/erreur-formulaire/' },
} as const;
