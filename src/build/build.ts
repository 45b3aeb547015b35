import path from 'node:path';
import { TEMPLATES, type Template } from '../../templates/pages/index.js';
import type { PageContext } from '../render/context.js';
import { FragmentCache } from '../render/fragments.js';
import { renderPage } from '../render/render.js';
import { buildPages, type Page, ROUTES, type Route, type RouteId } from '../routes.js';
import { loadSite } from '../site/load.js';
import { allCities } from '../site/model.js';
import { buildAssets } from './assets.js';
import { packageRoot } from './root.js';
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
}

export interface BuildResult {
  outDir: string;
  pages: number;
  files: number;
  /** Files whose bytes changed (the rest kept their previous file and modification time). */
  changed: number;
  bytes: number;
  ms: number;
}

/** How many file writes may be in flight while the next pages render. */
const WRITE_WINDOW = 32;

/** data -> site model -> page list -> HTML in a staging folder -> swapped in as outDir. */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const site = await loadSite(options.dataDir, { baseUrl: options.baseUrl });
  const pages = buildPages(site, options.routes ?? ROUTES);
  assertUniqueFiles(pages);
  const templates = options.templates ?? TEMPLATES;
  const assets = await buildAssets(packageRoot(), allCities(site));

  const staging = await Staging.open(options.outDir);
  try {
    for (const a of assets.files) await staging.write(a.file, a.contents);
    const pending = new Set<Promise<void>>();
    let done = 0;
    const fragments = new FragmentCache();
    for (const page of pages) {
      const ctx: PageContext = { site, page, pages, assets };
      const write = staging.write(page.file, renderPage(ctx, templates, fragments));
      pending.add(write);
      write.then(
        () => pending.delete(write),
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
    await staging.commit();
  } catch (err) {
    await staging.abort();
    throw err;
  }
  return {
    outDir: path.resolve(options.outDir),
    pages: pages.length,
    files: staging.files,
    changed: staging.changed,
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
