import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { TEMPLATES, type Template } from '../../templates/pages/index.js';
import { FragmentCache } from '../render/fragments.js';
import { renderPageBytes } from '../render/render.js';
import { buildPages, NEARBY, type Page, ROUTES, type Route, type RouteId } from '../routes.js';
import { loadSite } from '../site/load.js';
import type { Site } from '../site/model.js';
import { allCities, nearbyInputs, nearbySlugs, restoreNearby, topCities } from '../site/model.js';
import { loadClient, siteAssets } from './assets.js';
import { headersFile } from './host-files.js';
import {
  Fingerprints,
  hash,
  type Manifest,
  manifestFile,
  ownershipOnly,
  readManifest,
  siteDigest,
  writeManifest,
} from './manifest.js';
import { guardOutput, KEPT_ENTRIES, type Protected, projectRoot } from './output-guard.js';
import { GroupQueue, groupByCity, RenderPool } from './parallel.js';
import {
  checkPublicPaths,
  generatedFiles,
  listPublic,
  ownHeaders,
  replacedByPublic,
  stagePublic,
} from './public-files.js';
import { codeVersion, isCompiled, packageRoot } from './root.js';
import { buildSitemaps, robotsTxt } from './sitemap.js';
import { recoverOutput, type StagedFiles, Staging } from './staging.js';
import { WriterThread } from './write-thread.js';

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  /** Files copied into the output as they are (host files, images); null or absent for none. */
  publicDir?: string | null;
  baseUrl?: string;
  /** Where baseUrl came from, named if it is not a URL (--base-url, SITE_URL). */
  baseUrlFrom?: string;
  /** The sitemap's lastmod (YYYY-MM-DD); defaults to SOURCE_DATE_EPOCH's day, or today. */
  lastmod?: string;
  routes?: readonly Route[];
  templates?: Record<RouteId, Template>;
  onProgress?: (done: number, total: number) => void;
  /**
   * Worker threads that render besides this one; 0 renders and writes on this thread only.
   * Default: none below 4 cores, else one per core but two (this thread renders, one writes),
   * up to 3, used from PARALLEL_MIN_PAGES pages to render. Needs the compiled CLI.
   */
  workers?: number;
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
  /** Top-level entries of the output folder that the build did not write (but `.git`), left as they are. */
  foreign: string[];
}

/** A performance mark set when the first page has rendered: the benchmark's start-up figure. */
export const FIRST_PAGE_MARK = 'claimsite:first-page';

/** data -> site model -> page list -> HTML staged beside outDir -> committed as outDir. */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  // Before anything starts or is written: the folder must be the build's to write.
  guardOutput(options.outDir, {
    protect: protectedFolders(options),
    ours: existsSync(manifestFile(options.outDir)),
  });
  // Workers start first, so they load their copy of the site while this thread loads its own.
  const planned = plannedWorkers(options);
  const pool =
    planned > 0
      ? new RenderPool(
          WORKER_SCRIPT,
          { dataDir: options.dataDir, baseUrl: options.baseUrl },
          planned,
        )
      : null;
  try {
    return await buildWith(options, pool, started);
  } finally {
    void pool?.close();
  }
}

async function buildWith(
  options: BuildOptions,
  pool: RenderPool | null,
  started: number,
): Promise<BuildResult> {
  // The compiled CLI comes with its client bundle; from sources it is bundled afresh, while the
  // data loads. A data error is reported first; this keeps the bundle's own from going unhandled.
  const client = loadClient(packageRoot(), { prebuilt: isCompiled() });
  client.catch(() => {});
  const site = await loadSite(options.dataDir, {
    baseUrl: options.baseUrl,
    baseUrlFrom: options.baseUrlFrom,
  });
  const pages = buildPages(site, options.routes ?? ROUTES);
  assertUniqueFiles(pages);
  const templates = options.templates ?? TEMPLATES;
  const assets = siteAssets(await client, allCities(site));
  const publicFiles = listPublic(options.publicDir);
  if (options.publicDir)
    checkPublicPaths(options.publicDir, publicFiles, generatedFiles(pages, assets));

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
  recoverOutput(options.outDir);
  const previous = readManifest(options.outDir);
  const reusable = key !== null && previous?.key === key ? previous : null;
  const manifest: Manifest = {
    key: key ?? '',
    pages: {},
    files: {},
    sitemap: { key: '', files: [] },
    public: {},
  };
  // While no city moved, the last build's nearby lists are taken rather than measured again.
  const nearbyKey = hash([NEARBY, nearbyInputs(site)]);
  const nearby = reusable?.nearby;
  if (nearby?.key === nearbyKey) restoreNearby(site, NEARBY, nearby.lists);

  const fragments = new FragmentCache();
  const staging = Staging.open(options.outDir, previous?.files ?? null);
  let rendered = 0;
  let writer: WriterThread | null = null;
  let workers: Promise<StagedFiles[]> | null = null;
  try {
    for (const a of assets.files)
      if (!replacedByPublic(a.file, publicFiles)) staging.put(a.file, a.contents);
    manifest.public = stagePublic(staging, publicFiles, previous?.public ?? {});
    staging.put('_headers', headersFile(site.settings, ownHeaders(publicFiles)));
    let kept = 0;
    const toRender: number[] = [];
    const fingerprints = new Fingerprints();
    for (const [index, page] of pages.entries()) {
      const route = routeById.get(page.route);
      const fp = fingerprints.of(route?.reads ? route.reads(page, site) : summaryOfAll(site));
      manifest.pages[page.file] = fp;
      if (reusable?.pages[page.file] === fp && staging.keep(page.file)) {
        options.onProgress?.(++kept, pages.length);
      } else toRender.push(index);
    }
    // A city at a time: its shared fragments are made, used and let go together.
    const groups = groupByCity(pages, toRender);
    const queue = new GroupQueue();
    workers =
      pool && (options.workers !== undefined || toRender.length >= PARALLEL_MIN_PAGES)
        ? pool.run(
            {
              digest: siteDigest(site),
              groups,
              queue: queue.buffer,
              target: staging.target,
              assets: { css: assets.css, js: assets.js, cityIndex: assets.cityIndex },
            },
            queue,
          )
        : null;
    // Reported by the await below, after this thread's share; this keeps it from going unhandled.
    workers?.catch(() => {});
    writer = wantsWriterThread(options, toRender.length)
      ? new WriterThread(WRITE_WORKER_SCRIPT, staging.target, 'main-')
      : null;
    const sink = writer ?? staging;
    try {
      queue.renderClaimed(groups, (index) => {
        const page = pages[index] as Page;
        sink.putPage(
          page.file,
          renderPageBytes({ site, page, pages, assets }, templates, fragments),
        );
        if (++rendered === 1) performance.mark(FIRST_PAGE_MARK);
        options.onProgress?.(kept + queue.done + 1, pages.length);
      });
    } catch (err) {
      queue.stop();
      throw err;
    }
    // Stopped by a worker that failed: its error is the build's.
    if (queue.stopped) await workers;
    if (queue.stopped) throw new Error('rendering stopped before every page was rendered');
    if (writer) staging.add(await writer.finish());
    for (const staged of (await workers) ?? []) {
      staging.add(staged);
      rendered += staged.paths.length;
    }

    const lastmod = options.lastmod ?? defaultLastmod();
    manifest.sitemap.key = hash([
      site.settings.baseUrl,
      lastmod,
      pages.flatMap((p) => (p.sitemap ? [[p.path, p.sitemap]] : [])),
    ]);
    const keptSitemap =
      reusable?.sitemap.key === manifest.sitemap.key && staging.keep(...reusable.sitemap.files);
    manifest.sitemap.files = keptSitemap
      ? reusable.sitemap.files
      : buildSitemaps(site, pages, lastmod).map((s) => {
          staging.put(s.file, s.contents);
          return s.file;
        });
    if (!replacedByPublic('robots.txt', publicFiles)) staging.put('robots.txt', robotsTxt(site));
    manifest.nearby = { key: nearbyKey, lists: nearbySlugs(site, NEARBY) };
    manifest.files = staging.commit((files) => writeManifest(options.outDir, ownershipOnly(files)));
    writeManifest(options.outDir, manifest);
  } catch (err) {
    // The other threads stop at their next page (the queue is stopped); the staging folder goes
    // only once none of them can write into it again.
    await workers?.catch(() => {});
    await writer?.abort();
    staging.abort();
    throw err;
  }
  return {
    outDir: path.resolve(options.outDir),
    pages: pages.length,
    files: staging.files,
    changed: staging.changed,
    rendered,
    bytes: staging.bytes,
    ms: performance.now() - started,
    foreign: foreignEntries(options.outDir, manifest.files),
  };
}

/** What no output folder may hold or be inside: the build's inputs and the code that runs it. */
function protectedFolders(options: BuildOptions): Protected[] {
  return [
    { dir: projectRoot(), what: 'the project' },
    { dir: packageRoot(), what: 'claimsite itself' },
    { dir: options.dataDir, what: 'the data folder', input: true },
    ...(options.publicDir
      ? [{ dir: options.publicDir, what: 'the public folder', input: true }]
      : []),
  ];
}

/** The compiled worker, beside the compiled CLI (scripts/build-cli.mjs makes both). */
const WORKER_SCRIPT = new URL('./render-worker.js', import.meta.url);

/** The compiled writer thread, beside the compiled CLI. */
const WRITE_WORKER_SCRIPT = new URL('./write-worker.js', import.meta.url);

/** From this many pages to render, a thread of their own writes them (it costs about 30 ms to start). */
const WRITER_MIN_PAGES = 200;

/** Writes go to a thread of their own when there is a core for it, unless --workers 0 says none. */
function wantsWriterThread(options: BuildOptions, toRender: number): boolean {
  if (options.workers === 0 || !isCompiled()) return false;
  return availableParallelism() >= 2 && toRender >= WRITER_MIN_PAGES;
}

/**
 * Below this many pages to render, the build's own thread renders them all. Each render worker
 * loads the site again and warms up a renderer of its own; on 2 cores two renderers were only
 * 15-25% faster than one at 3,200 pages, and larger machines could not be measured here.
 */
export const PARALLEL_MIN_PAGES = 10_000;

/**
 * Render workers to start with the build (they are used only if there turn out to be
 * PARALLEL_MIN_PAGES pages to render); 0 renders on this thread.
 */
function plannedWorkers(options: BuildOptions): number {
  const custom = options.templates !== undefined || options.routes !== undefined;
  if (options.workers !== undefined) {
    if (!Number.isInteger(options.workers) || options.workers < 0)
      throw new Error('workers must be a whole number, 0 or more');
    if (options.workers > 0 && (custom || !isCompiled()))
      throw new Error(
        'worker threads render with the compiled CLI and its own templates only (npm run build)',
      );
    return options.workers;
  }
  // With fewer than 4 cores, this thread and the writer thread use them all.
  const cores = availableParallelism();
  if (custom || !isCompiled() || cores < 4) return 0;
  return Math.min(cores - 2, 3);
}

function foreignEntries(outDir: string, files: Record<string, number>): string[] {
  const ours = new Set(Object.keys(files).map((rel) => rel.split('/')[0]));
  return readdirSync(outDir).filter((n) => !ours.has(n) && !KEPT_ENTRIES.includes(n));
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
