import type { Command } from 'commander';
import { auditSummary } from '../audit/site-audit.js';
import { generate, PARALLEL_MIN_PAGES } from '../generate/generate.js';
import { displayPath } from '../site/display-path.js';
import { formatWhole } from '../site/format.js';
import { hoursNotice } from '../site/opening-hours.js';
import { sampleNotice, trustNotice } from '../site/sample.js';
import {
  baseUrlFrom,
  baseUrlOption,
  type CommandContext,
  dataOption,
  formatBytes,
  parseCount,
  parsePath,
  publicFolder,
} from './context.js';

interface GenerateFlags {
  data: string;
  out: string;
  public: string;
  baseUrl?: string;
  quiet?: boolean;
  workers?: number;
  /** false with --no-audit. */
  audit: boolean;
  strict?: boolean;
  precompress?: boolean;
}

/** `claimsite generate`: the whole site into the output folder. */
export function registerGenerate(program: Command, { io, siteData, extras }: CommandContext) {
  program
    .command('generate')
    .description('build the whole site into the output folder')
    .addOption(dataOption(siteData))
    .option('--out <dir>', 'output folder', parsePath, 'dist')
    .option(
      '--public <dir>',
      'files copied into the output as they are, if the folder exists',
      parsePath,
      'public',
    )
    .addOption(baseUrlOption())
    .option('--quiet', 'print nothing on success')
    .option('--no-audit', 'skip the content audit of the indexable pages')
    .option(
      '--strict',
      'the publishing build: fail, keeping the last output, while the data holds a sample marker or lacks a licence of its service area, or a page breaks the audit thresholds',
    )
    .option(
      '--workers <n>',
      `render on n more threads, 0 to render and write on one (default: with 4 or more cores, one per core but two, up to 3, from ${formatWhole(PARALLEL_MIN_PAGES)} pages to render)`,
      parseCount,
    )
    .option(
      '--precompress',
      'write a brotli (.br) and a gzip (.gz) file beside each HTML, CSS, JS, XML and SVG file, for claimsite serve to send',
    )
    .action(async (opts: GenerateFlags, cmd: Command) => {
      const result = await generate({
        dataDir: opts.data,
        outDir: opts.out,
        publicDir: publicFolder(opts.public, cmd.getOptionValueSource('public') === 'cli'),
        baseUrl: opts.baseUrl,
        baseUrlFrom: baseUrlFrom(cmd),
        workers: opts.workers,
        audit: opts.strict ? 'strict' : opts.audit ? 'report' : undefined,
        strict: opts.strict,
        precompress: opts.precompress,
        ...extras,
        onProgress: io.tty && !opts.quiet ? progress(io) : undefined,
      });
      if (!opts.quiet) report(io, result);
    });
}

/** The count of pages rendered so far, redrawn in place at most ten times a second. */
function progress(io: CommandContext['io']) {
  let lastDraw = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (now - lastDraw < 100 && done < total) return;
    lastDraw = now;
    io.err(`\rRendering pages: ${formatWhole(done)}/${formatWhole(total)}`);
    if (done === total) io.err('\r\x1b[K');
  };
}

/** What a build did, and what the owner should still see to. */
function report(io: CommandContext['io'], result: Awaited<ReturnType<typeof generate>>) {
  if (result.foreign.length > 0) {
    io.out(
      `Left as they are in ${displayPath(result.outDir)}, not written by claimsite: ${result.foreign.join(', ')}\n`,
    );
  }
  io.out(
    `Built ${formatWhole(result.pages)} pages (${formatWhole(result.rendered)} rendered): ${formatWhole(result.files)} files (${formatWhole(result.changed)} changed), ${formatBytes(result.bytes)} in ${(result.ms / 1000).toFixed(2)} s -> ${displayPath(result.outDir)}\n`,
  );
  if (result.shareImages.drawn > 0)
    io.out(
      `Drew ${formatWhole(result.shareImages.drawn)} share images (og:image)${result.shareCache ? `; later builds, in any folder, copy them from ${displayPath(result.shareCache)}` : ''}\n`,
    );
  const encoded = result.photos.filter((p) => p.encoded > 0);
  if (encoded.length > 0) {
    const total = (f: 'avif' | 'webp' | 'jpeg') =>
      formatBytes(result.photos.reduce((n, p) => n + p.bytes[f], 0));
    const ms = encoded.reduce((n, p) => n + p.ms, 0);
    io.out(
      `Resized ${formatWhole(encoded.length)} owner photos in ${(ms / 1000).toFixed(2)} s (AVIF ${total('avif')}, WebP ${total('webp')}, JPEG ${total('jpeg')} in all)${result.shareCache ? `; later builds copy them from ${displayPath(result.shareCache)}` : ''}\n`,
    );
  }
  if (result.audit && result.auditFile)
    io.out(
      `${auditSummary(result.audit)}  Report: ${displayPath(result.auditFile)}\n${result.facts}`,
    );
  io.out(sampleNotice(result.sample));
  io.out(trustNotice(result.trustMissing));
  io.out(hoursNotice(result.officeHours));
}
