import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AuditReport } from '../audit/audit.js';
import { RenderedPhrases } from '../audit/rendered-phrases.js';
import { COMPRESSOR } from '../compression.js';
import { packageRoot } from '../root.js';
import { displayPath } from '../site/display-path.js';
import { DataError } from '../site/errors.js';
import { factsTable } from '../site/fact-ages.js';
import { missingTrust, publishingIssues, sampleData } from '../site/sample.js';
import { type Audited, type AuditJob, dropAudit, finishAudit, startAudit } from './audit-step.js';
import { recoverOutput } from './commit.js';
import { commitBuild } from './commit-step.js';
import { type FilesSearch, startFilesFound } from './files-found.js';
import { codeOf, type InputOptions, type Inputs, loadInputs } from './inputs.js';
import { keepUnchanged } from './keep-unchanged.js';
import { manifestFile } from './manifest.js';
import { readPreviousManifest } from './manifest-read.js';
import { guardOutput, KEPT_ENTRIES, type Protected, projectRoot } from './output-guard.js';
import { LastDates, pageDates } from './page-dates.js';
import { type Plan, planBuild } from './plan.js';
import { stagePrecompressed } from './precompress.js';
import { checkPublicPages } from './public-files.js';
import { renderPages } from './render-pages.js';
import { stageSitemap } from './sitemap.js';
import { stageFiles } from './stage-files.js';
import { type PhotoReport, stagePhotos } from './stage-photos.js';
import {
  type DrawingAhead,
  drawAhead,
  type ShareImageCounts,
  stageBuildImages,
} from './stage-share-images.js';
import { Staging } from './staging.js';
import { startRenderPool } from './threads.js';
import { readValidRecords, saveValidRecords } from './valid-records.js';

export { FIRST_PAGE_MARK } from './render-pages.js';
export { PARALLEL_MIN_PAGES } from './threads.js';

/** A build's inputs (see InputOptions), and how it runs. */
interface GenerateOptions extends InputOptions {
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
   * Where share images drawn and owner photos encoded by earlier builds are kept, so a build
   * into a new folder need not make them again; null for none. Default: defaultCacheDir() (CLAIMSITE_CACHE_DIR, or the
   * system's cache folder).
   */
  cacheDir?: string | null;
  /**
   * Write a brotli and a gzip form beside every HTML, CSS, JS, XML and SVG file, for
   * `claimsite serve` to send (see precompress.ts). Default: none.
   */
  precompress?: boolean;
  /**
   * The publishing build (`generate --strict`): refuses, before anything is written, data that
   * still holds a sample marker or lacks a licence its service area requires (publishingIssues).
   */
  strict?: boolean;
}

interface GenerateResult {
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
  /** site.json's office hours, as written (see hoursNotice). */
  officeHours: string;
  /** The dated facts by age and source kind, as a table (see factsTable); empty for none. */
  facts: string;
  /** The content audit, when asked for; its report is written to `auditFile`. */
  audit: AuditReport | null;
  auditFile: string | null;
  /** The share images: kept in the output folder, copied from the cache, or drawn. */
  shareImages: ShareImageCounts;
  /** Where drawn share images are kept for later builds; null for no cache. */
  shareCache: string | null;
  /** The owner's photos: what became of each one's files, the time encoding them, their bytes. */
  photos: PhotoReport[];
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
  // they are over 100 MB that the audit's own tables need not sit on top of.
  const audited = finishAudit(audit, options.outDir);
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
  const threads = renderThreads(options);
  let files: FilesSearch | null = null;
  try {
    recoverOutput(options.outDir);
    // Read on another thread, when it is large, while this one loads the data.
    const reading = readPreviousManifest(options.outDir);
    // Which of its files are still there, found on a third while this one loads and plans.
    files = startFilesFound(options.outDir);
    const code = codeOf(options);
    const inputs = await loadInputs({
      ...options,
      validRecords: readValidRecords(options.outDir, code),
    });
    if (options.strict) refuseUnpublishable(inputs, options.dataDir);
    const previous = await reading;
    const plan = planBuild(inputs, previous);
    if (options.publicDir) checkPublicPages(options.publicDir, inputs, plan);
    const staging = Staging.open(options.outDir, previous);
    // The audited pages' phrases, split as this thread renders them (see RenderedPhrases).
    const topics = inputs.site.facts.topics ?? undefined;
    const phrases = options.audit ? new RenderedPhrases(options.outDir, topics) : null;
    const step = { options, inputs, previous, plan, staging, threads, phrases, topics, code };
    return await stageAndCommit(step, files);
  } finally {
    files?.stop();
    void threads.pool?.close();
  }
}

/** What the steps after the plan share: the build's inputs, its plan and its staging folder. */
interface Step {
  options: GenerateOptions;
  inputs: Inputs;
  previous: Awaited<ReturnType<typeof readPreviousManifest>>;
  plan: Plan;
  staging: Staging;
  threads: ReturnType<typeof renderThreads>;
  phrases: RenderedPhrases | null;
  topics: NonNullable<Inputs['site']['facts']['topics']> | undefined;
  code: ReturnType<typeof codeOf>;
}

/** The files staged, the pages rendered, the images and photos made, and all committed. */
async function stageAndCommit(step: Step, files: FilesSearch): Promise<Built> {
  const { options, inputs, previous, plan, staging, threads, phrases, topics, code } = step;
  let ahead: DrawingAhead | null = null;
  try {
    staging.takeFound(await files.found);
    const publicStamps = stageFiles(staging, inputs, previous);
    keepUnchanged(plan, staging);
    // Asked before the render, while the last manifest still has every page's line: a build
    // that reuses none lets them go (at 100x, 34 MB it would hold through the render).
    const lastDates = LastDates.of(plan.indexable, previous);
    if (previous && !plan.reusable) staging.renumber(previous.keepUnmarked());
    // Images no build drew are drawn on threads of their own while the pages render.
    ahead = drawAhead(staging, plan, options.cacheDir);
    const rendered = await renderPages(
      inputs,
      plan,
      staging,
      threads,
      phrases,
      progress(options, plan),
    );
    const { images, photos, dates } = await stageAfterRender(step, ahead, lastDates);
    const audit = startAudit(options.audit, options.outDir, plan, staging, phrases, topics);
    try {
      commitBuild(options.outDir, inputs, plan, staging, previous, {
        publicStamps,
        dates,
        precompressed: options.precompress ? COMPRESSOR : undefined,
      });
    } catch (err) {
      dropAudit(audit);
      throw err;
    }
    saveValidRecords(options.outDir, code, inputs.site);
    return {
      result: { ...resultOf(options, inputs, plan, staging, rendered, images), photos },
      audit,
    };
  } catch (err) {
    ahead?.stop();
    staging.abort();
    phrases?.close();
    throw err;
  }
}

/** Once the pages are rendered: share images, owner photos, the sitemap and compressed copies. */
async function stageAfterRender(
  { options, inputs, previous, plan, staging }: Step,
  ahead: DrawingAhead | null,
  lastDates: LastDates,
) {
  const images = await stageBuildImages(
    staging,
    inputs,
    plan,
    options.cacheDir,
    await ahead?.finish(),
  );
  const photos = await stagePhotos(
    staging,
    inputs.photos,
    images.cacheDir,
    displayPath(path.join(options.dataDir, 'site.json')),
  );
  const dates = pageDates(plan.indexable, plan.state, lastDates, inputs.lastmod);
  stageSitemap(staging, inputs.site, plan.indexable, dates, inputs.lastmod);
  if (options.precompress) await stagePrecompressed(staging, plan, previous);
  return { images, photos, dates };
}

/** Sample content or a missing licence, each named: nothing of it is published. */
function refuseUnpublishable(inputs: Inputs, dataDir: string): void {
  const issues = publishingIssues(inputs.site, dataDir);
  if (issues.length > 0) throw new DataError(issues, 'Not ready to publish');
}

/** How the build's pages are rendered: on which threads (see threads.ts). */
function renderThreads(options: GenerateOptions) {
  const custom = options.templates !== undefined || options.routes !== undefined;
  return { ...options, custom, pool: startRenderPool({ ...options, custom }) };
}

/** Reports pages done out of all, kept pages counted as done from the start. */
function progress(options: GenerateOptions, plan: Plan): ((done: number) => void) | undefined {
  const { onProgress } = options;
  if (!onProgress) return undefined;
  const total = plan.files.count;
  const kept = total - countOf(plan.state.render);
  return (done) => onProgress(kept + done, total);
}

function resultOf(
  options: GenerateOptions,
  inputs: Inputs,
  plan: Plan,
  staging: Staging,
  rendered: number,
  images: { counts: ShareImageCounts; cacheDir: string | null },
): Omit<Built['result'], 'photos'> {
  const { extras } = staging;
  const total = plan.files.count;
  return {
    outDir: path.resolve(options.outDir),
    pages: total,
    files: total + extras.size,
    changed: staging.changed,
    rendered,
    bytes: sumOf(plan.state.sizes) + sumOf(extras.values()),
    foreign: foreignEntries(options.outDir, plan.tops, extras),
    sample: sampleData(inputs.site),
    trustMissing: missingTrust(inputs.site),
    officeHours: inputs.site.settings.officeHours,
    facts: factsTable(inputs.site),
    shareImages: images.counts,
    shareCache: images.cacheDir,
  };
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
