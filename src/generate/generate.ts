import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AuditReport } from '../audit/audit.js';
import { SavedAudit } from '../audit/audit-store.js';
import { auditBuild, type PendingAudit } from '../audit/build-audit.js';
import { RenderedPhrases } from '../audit/rendered-phrases.js';
import { AuditFailed, auditReportFile, writeAuditReport } from '../audit/site-audit.js';
import { NEARBY } from '../routes.js';
import { defaultCacheDir, ImageCache } from '../share/image-cache.js';
import type { ShareImage } from '../share/share-images.js';
import { nearbySlugs } from '../site/model.js';
import { missingTrust, sampleData } from '../site/sample.js';
import { recoverOutput } from './commit.js';
import { startFilesFound } from './files-found.js';
import { type InputOptions, type Inputs, loadInputs } from './inputs.js';
import {
  entryLine,
  type FileEntry,
  manifestFile,
  manifestHeader,
  PreviousManifest,
  type UnitLine,
  writeManifestAside,
} from './manifest.js';
import { guardOutput, KEPT_ENTRIES, type Protected, projectRoot } from './output-guard.js';
import { pageDates } from './page-dates.js';
import { type IndexedPage, indexedLine, type Plan, planBuild, printText } from './plan.js';
import { checkPublicPaths, generatedFiles } from './public-files.js';
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
  const { result, audit } = await buildAndCommit(options);
  // A report's audit runs once the build's inputs, plan and last manifest are let go: at 100x
  // they are over 100 MB that the audit's own tables need not sit on top of. They are collected
  // first where the process allows it (the CLI does): V8 would collect them only once the
  // audit's tables and report had grown the heap, at an incremental build's peak (at 100x, 150 MB
  // of heap and 30 MB of buffers, and a peak 15-25 MB lower for one collection of 0.03 s).
  if (audit && 'pages' in audit) (globalThis as { gc?: () => void }).gc?.();
  const audited = audit && 'pages' in audit ? auditCommitted(audit, options) : audit;
  if (audited) {
    audited.state.commit();
    writeAuditReport(audited.file, audited.report);
  }
  return {
    ...result,
    ms: performance.now() - started,
    audit: audited?.report ?? null,
    auditFile: audited?.file ?? null,
  };
}

/** Everything but a report's audit: what the build made, and the audit done or to do. */
interface Built {
  result: Omit<GenerateResult, 'ms' | 'audit' | 'auditFile'>;
  audit: Audited | AuditJob | null;
}

/** The build's steps up to the commit and the manifest (see generate). */
async function buildAndCommit(options: GenerateOptions): Promise<Built> {
  // Render workers start first, so they load their copy of the site while this thread loads.
  const custom = options.templates !== undefined || options.routes !== undefined;
  const threads = { ...options, custom, pool: startRenderPool({ ...options, custom }) };
  try {
    const inputs = await loadInputs(options);
    recoverOutput(options.outDir);
    const previous = PreviousManifest.read(options.outDir);
    // Which of its files are still there, found on another thread while this one plans.
    const found = previous?.stamp
      ? startFilesFound(options.outDir, previous.entries)
      : Promise.resolve(null);
    const plan = planBuild(inputs, previous);
    if (options.publicDir)
      checkPublicPaths(
        options.publicDir,
        inputs.publicFiles,
        generatedFiles((rel) => plan.publicPages.get(rel), inputs.assets, [
          ...plan.images.map((image) => image.file),
          ...plan.copiedImages,
        ]),
      );
    const staging = Staging.open(options.outDir, previous);
    // The audited pages' phrases, split as this thread renders them (see RenderedPhrases).
    const phrases = options.audit ? new RenderedPhrases(options.outDir) : null;
    try {
      staging.takeFound(await found);
      const publicStamps = stageFiles(staging, inputs, previous);
      keepUnchanged(plan, staging);
      const total = plan.files.count;
      const kept = total - countOf(plan.state.render);
      const rendered = await renderPages(
        inputs,
        plan,
        staging,
        threads,
        (done) => options.onProgress?.(kept + done, total),
        phrases ?? undefined,
      );
      // After the pages, so that drawing images (when none is cached) delays no first page.
      const cache = new ImageCache(
        options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir,
      );
      const missing = plan.copiedImages.filter((file) => !staging.keep(file));
      const shareCounts = await stageShareImages(
        staging,
        [...plan.images, ...imagesOfCopiedUnits(inputs, plan, missing)],
        cache,
      );
      shareCounts.kept += plan.copiedImages.length - missing.length;
      const dates = pageDates(plan.indexable, plan.state, previous, inputs.lastmod);
      stageSitemap(staging, inputs.site, plan.indexable, dates, inputs.lastmod);
      // A strict audit decides whether the build commits; a report's is made after the commit.
      const audit =
        options.audit === 'strict'
          ? auditStaged(auditJob(plan, staging, options, phrases), staging, options)
          : options.audit
            ? auditJob(plan, staging, options, phrases)
            : null;
      try {
        // The phrases kept for the next audit describe the output as it is: none while it
        // changes.
        SavedAudit.discard(options.outDir, audit !== null);
        const lines = manifestLines(plan, staging, dates);
        const gone = staging.target.incremental
          ? [...(previous?.unmarked((rel) => staging.extras.has(rel)) ?? [])]
          : [];
        // The manifest is written aside and put in place by the commit, with the files.
        staging.commit(gone, () =>
          writeManifestAside(
            options.outDir,
            manifestHeader({
              key: inputs.key ?? '',
              public: publicStamps,
              nearby: { key: plan.nearby.key, lists: nearbySlugs(inputs.site, NEARBY) },
              units: unitLines(plan),
            }),
            lines(),
          ),
        );
      } catch (err) {
        dropAudit(audit);
        throw err;
      }
      const extras = staging.extras;
      return {
        result: {
          outDir: path.resolve(options.outDir),
          pages: total,
          files: total + extras.size,
          changed: staging.changed,
          rendered,
          bytes: sumOf(plan.state.sizes) + sumOf(extras.values()),
          foreign: foreignEntries(options.outDir, plan.tops, extras),
          sample: sampleData(inputs.site),
          trustMissing: missingTrust(inputs.site),
          shareImages: shareCounts,
          shareCache: cache.dir,
        },
        audit,
      };
    } catch (err) {
      staging.abort();
      phrases?.close();
      throw err;
    }
  } finally {
    void threads.pool?.close();
  }
}

/**
 * The disk's edge of the plan: an unchanged page whose file is gone from the output folder (or
 * whose folder is new) is rendered again. O(1) a page: one existence check, or a look at what
 * the thread that checked the last output's files found (a copied page by its line's number).
 */
function keepUnchanged(plan: Plan, staging: Staging): void {
  const { render } = plan.state;
  const { copiedLines } = plan;
  for (const at of plan.files.cursor()) {
    const i = at.index;
    if (render[i] !== 0) continue;
    const line = copiedLines[i] ?? 0;
    // A copied page's path is not even decoded when the thread found its file.
    const kept =
      line > 0
        ? (staging.foundAt(line - 1) ?? staging.keepEntry(at.path, line - 1))
        : staging.keepPage(at.path);
    if (!kept) render[i] = 1;
  }
}

/** The new output's files as manifest lines: the pages, in page order, then the other files. */
function manifestLines(plan: Plan, staging: Staging, dates: readonly string[]) {
  return function* lines(): Generator<string> {
    const { files, prints, state, indexable, copiedLines, reusable } = plan;
    // The indexable pages are in page order too: walked beside the files.
    let k = 0;
    for (const at of files.cursor()) {
      const i = at.index;
      // A copied page whose file stayed as it was has the line it had (the same day too).
      const last = copiedLines[i] ?? 0;
      if (last > 0 && reusable && state.render[i] === 0 && state.changed[i] === 0) {
        if (indexable[k]?.index === i) k++;
        yield reusable.lineAt(last - 1);
        continue;
      }
      const entry: FileEntry = [at.path, state.sizes[i] ?? 0, printText(prints.at(i))];
      const page = indexable[k];
      if (page?.index === i) {
        entry.push(dates[k] ?? '', indexedLine(page));
        k++;
      }
      yield entryLine(entry);
    }
    for (const [rel, size] of staging.extras) yield entryLine([rel, size]);
  };
}

/** Each city's unit: its digest, where its lines are (the pages' lines come first, in order). */
function unitLines(plan: Plan): Record<string, UnitLine> {
  const out: Record<string, UnitLine> = {};
  for (const [u, unit] of plan.units.entries()) {
    if (!unit) continue;
    const first = plan.starts[u] ?? 0;
    const count = (plan.starts[u + 1] ?? first) - first;
    out[unit.slug] = [unit.digest, first, count, unit.images, unit.files];
  }
  return out;
}

/**
 * The share images of copied units that are gone from the output folder: their units' pages are
 * made again to name what the images show. Rare (someone deleted an image), and O(those units).
 */
function imagesOfCopiedUnits(inputs: Inputs, plan: Plan, files: readonly string[]): ShareImage[] {
  if (files.length === 0) return [];
  const wanted = new Set(files);
  const found = new Map<string, ShareImage>();
  for (const [u, unit] of plan.units.entries())
    if (unit?.images.some((file) => wanted.has(file)))
      for (const page of inputs.units.pages(u)) {
        const image = inputs.share.of(page);
        if (wanted.has(image.file)) found.set(image.file, image);
      }
  return [...found.values()];
}

function countOf(flags: Uint8Array): number {
  let n = 0;
  for (const f of flags) n += f;
  return n;
}

function sumOf(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}

/**
 * A strict audit, of the output as it will be once committed: it stops the build here, with its
 * report, when a page breaks a threshold, so the output folder keeps its last good site.
 */
function auditStaged(job: AuditJob, staging: Staging, options: GenerateOptions): Audited {
  const audited = auditCommitted(job, options, (file) => staging.locate(file));
  if (audited.report.failures.length > 0) {
    audited.state.abort();
    writeAuditReport(audited.file, audited.report);
    throw new AuditFailed(audited.report, audited.file);
  }
  return audited;
}

/**
 * What the audit needs of a build: its indexable pages, which of them the build left as they
 * were, and the last build's phrases, opened before the commit discards them (an open file
 * stays readable).
 */
interface AuditJob {
  pages: readonly IndexedPage[];
  /**
   * By page index, 1 where the commit changes the page's file (a copy: the plan's state is let
   * go); null in a new output folder, where the last build's phrases describe nothing.
   */
  changed: Uint8Array | null;
  previous: SavedAudit | null;
  /** The phrases of the pages this thread rendered; closed once the audit is done. */
  rendered: RenderedPhrases | null;
}

function auditJob(
  plan: Plan,
  staging: Staging,
  options: GenerateOptions,
  rendered: RenderedPhrases | null,
): AuditJob {
  const { incremental } = staging.target;
  return {
    pages: plan.indexable,
    changed: incremental ? plan.state.changed.slice() : null,
    previous: incremental ? SavedAudit.open(options.outDir) : null,
    rendered,
  };
}

/** The audit of the indexable pages, read where `locate` says (default: the output folder). */
function auditCommitted(
  job: AuditJob,
  options: GenerateOptions,
  locate = (file: string) => path.join(options.outDir, file),
): Audited {
  try {
    // The audit closes the last build's once it is done with it.
    const { report, ...state } = auditBuild(job.pages, locate, {
      previous: job.previous,
      // A file the commit leaves as it is says what it said when the last build audited it.
      unchanged: (i) => job.changed?.[job.pages[i]?.index ?? -1] === 0,
      rendered: (i) => job.rendered?.get(job.pages[i]?.index ?? -1) ?? null,
      outDir: options.outDir,
    });
    return { report, file: auditReportFile(options.outDir), state };
  } finally {
    job.rendered?.close();
  }
}

/** An audit a failed commit leaves: its files are let go. */
function dropAudit(audit: Audited | AuditJob | null): void {
  if (audit && 'pages' in audit) {
    audit.previous?.close();
    audit.rendered?.close();
  } else audit?.state.abort();
}

interface Audited {
  report: AuditReport;
  file: string;
  /** What the next build's audit starts from, put in place once the output is committed. */
  state: Omit<PendingAudit, 'report'>;
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
function foreignEntries(
  outDir: string,
  tops: ReadonlySet<string>,
  extras: ReadonlyMap<string, number>,
): string[] {
  const ours = new Set([...tops, ...[...extras.keys()].map((rel) => rel.split('/')[0])]);
  return readdirSync(outDir).filter((n) => !ours.has(n) && !KEPT_ENTRIES.includes(n));
}
