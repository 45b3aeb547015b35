import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AuditReport } from '../audit/audit.js';
import { AuditFailed, auditReportFile, auditSite, writeAuditReport } from '../audit/site-audit.js';
import { NEARBY } from '../routes.js';
import { defaultCacheDir, ImageCache } from '../share/image-cache.js';
import { nearbySlugs } from '../site/model.js';
import { missingTrust, sampleData } from '../site/sample.js';
import { recoverOutput } from './commit.js';
import { type InputOptions, type Inputs, loadInputs } from './inputs.js';
import {
  type Manifest,
  manifestFile,
  ownershipOnly,
  readManifest,
  writeManifest,
} from './manifest.js';
import { guardOutput, KEPT_ENTRIES, type Protected, projectRoot } from './output-guard.js';
import { pageDates } from './page-dates.js';
import { type Plan, planBuild } from './plan.js';
import { renderPages } from './render-pages.js';
import { packageRoot } from './root.js';
import { stageSitemap } from './sitemap.js';
import { stageFiles } from './stage-files.js';
import { type ShareImageCounts, stageShareImages } from './stage-share-images.js';
import { Staging } from './staging.js';
import { startRenderPool } from './threads.js';

export { FIRST_PAGE_MARK } from './render-pages.js';
export { PARALLEL_MIN_PAGES } from './threads.js';

/** A build's inputs (see InputOptions), and how it runs. */
export interface GenerateOptions extends InputOptions {
  outDir: string;
  onProgress?: (done: number, total: number) => void;
  /** Worker threads that render besides this one; 0 renders and writes on one (see threads.ts). */
  workers?: number;
  /**
   * The content audit of the indexable pages (src/audit): 'report' writes its report beside the
   * output, 'strict' also stops the build, before it commits, when a page breaks a threshold.
   * Default: none.
   */
  audit?: 'report' | 'strict';
  /**
   * Where share images drawn by earlier builds are kept, so a build into a new folder need not
   * draw them again; null for none. Default: defaultCacheDir() (CLAIMSITE_CACHE_DIR, or the
   * system's cache folder).
   */
  cacheDir?: string | null;
}

export interface GenerateResult {
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
  /** What the data set still holds of the bundled samples (see sampleData). */
  sample: string[];
  /** What site.json does not yet say of the business (see missingTrust). */
  trustMissing: string[];
  /** The content audit, when asked for; its report is written to `auditFile`. */
  audit: AuditReport | null;
  auditFile: string | null;
  /** The share images: kept in the output folder, copied from the cache, or drawn. */
  shareImages: ShareImageCounts;
  /** Where drawn share images are kept for later builds; null for no cache. */
  shareCache: string | null;
}

/**
 * The build: data and templates to a folder of pages, in named steps. Nothing in the output
 * folder changes until the commit, so a failed or killed build leaves it as it was.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  // The folder must be the build's to write, before anything starts.
  guardOutput(options.outDir, {
    protect: protectedFolders(options),
    ours: existsSync(manifestFile(options.outDir)),
  });
  // Render workers start first, so they load their copy of the site while this thread loads.
  const custom = options.templates !== undefined || options.routes !== undefined;
  const threads = { ...options, custom, pool: startRenderPool({ ...options, custom }) };
  try {
    const inputs = await loadInputs(options);
    recoverOutput(options.outDir);
    const previous = readManifest(options.outDir);
    const plan = planBuild(inputs, previous);
    const staging = Staging.open(options.outDir, previous?.files ?? null);
    try {
      const publicStamps = stageFiles(staging, inputs, previous);
      // The disk's edge of the plan: an unchanged page whose file is gone is rendered again.
      const gone = plan.unchanged.filter((i) => !staging.keep(inputs.pages[i]?.file ?? ''));
      const toRender = inPageOrder(plan.changed, gone);
      const kept = plan.unchanged.length - gone.length;
      const total = inputs.pages.length;
      const rendered = await renderPages(inputs, toRender, staging, threads, (done) =>
        options.onProgress?.(kept + done, total),
      );
      // After the pages, so that drawing images (when none is cached) delays no first page.
      const cache = new ImageCache(
        options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir,
      );
      const shareCounts = await stageShareImages(staging, inputs, cache);
      const dates = pageDates(
        inputs.site,
        inputs.pages,
        (file) => staging.changes(file),
        previous?.modified,
        inputs.lastmod,
      );
      const sitemap = stageSitemap(staging, inputs, plan, dates, previous?.sitemap);
      const audited = options.audit ? auditStaged(inputs, staging, options) : null;
      const files = staging.commit((all) => writeManifest(options.outDir, ownershipOnly(all)));
      writeManifest(
        options.outDir,
        manifestOf(inputs, plan, { files, sitemap, publicStamps, dates }),
      );
      if (audited) writeAuditReport(audited.file, audited.report);
      return {
        outDir: path.resolve(options.outDir),
        pages: total,
        files: staging.files,
        changed: staging.changed,
        rendered,
        bytes: staging.bytes,
        ms: performance.now() - started,
        foreign: foreignEntries(options.outDir, files),
        sample: sampleData(inputs.site),
        trustMissing: missingTrust(inputs.site),
        audit: audited?.report ?? null,
        auditFile: audited?.file ?? null,
        shareImages: shareCounts,
        shareCache: cache.dir,
      };
    } catch (err) {
      staging.abort();
      throw err;
    }
  } finally {
    void threads.pool?.close();
  }
}

/**
 * The content audit of the output as it will be once committed. A strict one stops the build
 * here, with its report, so the output folder keeps its last good site; otherwise the report
 * is written once the output is committed.
 */
function auditStaged(inputs: Inputs, staging: Staging, options: GenerateOptions): Audited {
  const report = auditSite(inputs.pages, (file) => staging.locate(file));
  const file = auditReportFile(options.outDir);
  if (options.audit === 'strict' && report.failures.length > 0) {
    writeAuditReport(file, report);
    throw new AuditFailed(report, file);
  }
  return { report, file };
}

interface Audited {
  report: AuditReport;
  file: string;
}

/** Two lists of page indices, each in page order, as one in page order. */
function inPageOrder(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length)
    out.push(
      j >= b.length || (i < a.length && (a[i] ?? 0) < (b[j] ?? 0)) ? (a[i++] ?? 0) : (b[j++] ?? 0),
    );
  return out;
}

/** What the next build needs to know of this one. */
function manifestOf(
  inputs: Inputs,
  plan: Plan,
  made: {
    files: Record<string, number>;
    sitemap: { key: string; files: string[] };
    publicStamps: Record<string, string>;
    dates: Record<string, string>;
  },
): Manifest {
  return {
    key: inputs.key ?? '',
    pages: plan.fingerprints,
    files: made.files,
    sitemap: made.sitemap,
    public: made.publicStamps,
    nearby: { key: plan.nearby.key, lists: nearbySlugs(inputs.site, NEARBY) },
    modified: made.dates,
  };
}

/** What no output folder may hold or be inside: the build's inputs and the code that runs it. */
function protectedFolders(options: GenerateOptions): Protected[] {
  return [
    { dir: projectRoot(), what: 'the project' },
    { dir: packageRoot(), what: 'claimsite itself' },
    { dir: options.dataDir, what: 'the data folder', input: true },
    ...(options.publicDir
      ? [{ dir: options.publicDir, what: 'the public folder', input: true }]
      : []),
  ];
}

/** The output folder's top-level entries the build did not write (but `.git`). */
function foreignEntries(outDir: string, files: Record<string, number>): string[] {
  const ours = new Set(Object.keys(files).map((rel) => rel.split('/')[0]));
  return readdirSync(outDir).filter((n) => !ours.has(n) && !KEPT_ENTRIES.includes(n));
}
