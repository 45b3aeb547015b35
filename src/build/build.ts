import path from 'node:path';
import { TEMPLATES, type Template } from '../../templates/pages/index.js';
import { FragmentCache } from '../render/fragments.js';
import { renderPage } from '../render/render.js';
import { buildPages, type Page, ROUTES, type Route, type RouteId } from '../routes.js';
import { loadSite } from '../site/load.js';
import type { Site } from '../site/model.js';
import { allCities, topCities } from '../site/model.js';
import { buildAssets } from './assets.js';
import { hash, type Manifest, readManifest, removeManifest, writeManifest } from './manifest.js';
import { codeVersion, isCompiled, packageRoot } from './root.js';
import { buildSitemaps, robotsTxt } from './sitemap.js';
import { Staging } from './staging.js';

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  baseUrl?: string;
  /** The sitemap's lastmod (YYYY-MM-DD); defaults to SOURCE_DATE_EPOCH's day, or today. */
  lastmod?: string;
  routes?: readonly Route[];
  templates?: Record<RouteId, Template>;
  onProgress?: (done: number, total: number) => void;
  /** Identifies the templates and code; pages are reused only under the same one. Default: the CLI bundle's hash. */
  codeVersion?: string | null;
}

export interface BuildResult {
  outDir: string;
  pages: number;
  files: number;
  /** Files whose bytes changed (the rest kept their previous file and modification time). */
  changed: number;
  /** Pages rendered; the others' inputs had not changed since the last build. */
  rendered: number;
  bytes: number;
  ms: number;
}

/** A performance mark set when the first page has rendered: the benchmark's start-up figure. */
export const FIRST_PAGE_MARK = 'claimsite:first-page';

/** How many file writes may be in flight while the next pages render. */
const WRITE_WINDOW = 32;

/** data -> site model -> page list -> HTML in a staging folder -> swapped in as outDir. */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const loading = loadSite(options.dataDir, { baseUrl: options.baseUrl });
  const bundling = buildAssets(
    packageRoot(),
    loading.then((site) => allCities(site)),
    // The compiled CLI comes with its client bundle; from sources it is bundled afresh.
    { prebuilt: isCompiled() },
  );
  // A failed load is reported by the await below; this keeps its twin from going unhandled.
  bundling.catch(() => {});
  const site = await loading;
  const pages = buildPages(site, options.routes ?? ROUTES);
  assertUniqueFiles(pages);
  const templates = options.templates ?? TEMPLATES;
  const assets = await bundling;

  const routeById = new Map((options.routes ?? ROUTES).map((r) => [r.id, r]));
  // Pages render from the site model; what they share goes into one key, what differs per page
  // into its fingerprint. Without a code version (running from sources) nothing is reused.
  const version = options.codeVersion === undefined ? codeVersion() : options.codeVersion;
  const key =
    version &&
    hash([
      version,
      site.settings,
      site.national,
      site.content,
      assets.css,
      assets.js,
      assets.cityIndex,
      footerCities(site),
    ]);
  const previous = key ? await readManifest(options.outDir) : null;
  const manifest: Manifest = { key: key ?? '', pages: {} };

  const fragments = new FragmentCache();
  const staging = await Staging.open(options.outDir);
  let rendered = 0;
  try {
    for (const a of assets.files) await staging.write(a.file, a.contents);
    const pending = new Set<Promise<unknown>>();
    let done = 0;
    for (const page of pages) {
      const route = routeById.get(page.route);
      const fp = hash(route?.reads ? route.reads(page, site) : summaryOfAll(site));
      manifest.pages[page.file] = fp;
      let work: Promise<unknown>;
      if (previous && previous.key === key && previous.pages[page.file] === fp) {
        work = staging.reuse(page.file).then(async (kept) => {
          if (!kept) await staging.write(page.file, renderOne(page));
        });
      } else {
        work = staging.write(page.file, renderOne(page));
      }
      pending.add(work);
      work.then(
        () => pending.delete(work),
        () => {},
      );
      if (pending.size >= WRITE_WINDOW) await Promise.race(pending);
      options.onProgress?.(++done, pages.length);
    }
    await Promise.all(pending);
    for (const s of await buildSitemaps(site, pages, options.lastmod ?? defaultLastmod())) {
      await staging.write(s.file, s.contents);
    }
    await staging.write('robots.txt', robotsTxt(site));
    await removeManifest(options.outDir);
    await staging.commit();
    if (key) await writeManifest(options.outDir, manifest);
  } catch (err) {
    await staging.abort();
    throw err;
  }

  function renderOne(page: Page): string {
    const html = renderPage({ site, page, pages, assets }, templates, fragments);
    if (++rendered === 1) performance.mark(FIRST_PAGE_MARK);
    return html;
  }
  return {
    outDir: path.resolve(options.outDir),
    pages: pages.length,
    files: staging.files,
    changed: staging.changed,
    rendered,
    bytes: staging.bytes,
    ms: performance.now() - started,
  };
}

function defaultLastmod(): string {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const date = Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date();
  return date.toISOString().slice(0, 10);
}

function assertUniqueFiles(pages: readonly Page[]) {
  const seen = new Map<string, string>();
  for (const p of pages) {
    const other = seen.get(p.file);
    if (other) throw new Error(`Two pages would write ${p.file}: ${other} and ${p.path}`);
    seen.set(p.file, p.path);
  }
}

/** The footer lists the most populous cities on every page. */
function footerCities(site: Site) {
  return topCities(site, 4).map((c) => [c.slug, c.name]);
}

/** A page that declares nothing depends on every city. */
function summaryOfAll(site: Site) {
  return site.cities;
}
