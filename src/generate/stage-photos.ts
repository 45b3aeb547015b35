import { encodeVariant } from '../photos/encode.js';
import { FORMATS, type PhotoFormat, type PhotoPlan } from '../photos/plan.js';
import { ImageCache } from '../share/image-cache.js';
import { DataError } from '../site/errors.js';
import type { Staging } from './staging.js';

/** What the build did with one owner photo's files, and what they weigh. */
export interface PhotoReport {
  src: string;
  /** Files left in the output folder, copied from the cache, or encoded now. */
  kept: number;
  cached: number;
  encoded: number;
  /** Time spent encoding this photo's files (0 when none was). */
  ms: number;
  /** Bytes of its files, by format. */
  bytes: Record<PhotoFormat, number>;
}

const LOOKS_WHOLE: Record<PhotoFormat, (b: Uint8Array) => boolean> = {
  avif: (b) => b.length > 12 && Buffer.from(b.subarray(4, 12)).toString('latin1') === 'ftypavif',
  webp: (b) =>
    b.length > 12 &&
    Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP',
  jpeg: (b) => b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b.at(-2) === 0xff,
};
const EXT: Record<PhotoFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/**
 * Stages every file of the owner's photos, as share images are staged: a file already in the
 * output folder stays (its name is the key of what it holds), one an earlier build encoded comes
 * from the cache (`cacheDir`, beside the share images; null for none), only the rest are
 * encoded. A photo the encoder cannot read to the end is a DataError naming its record.
 */
export async function stagePhotos(
  staging: Staging,
  plan: PhotoPlan,
  cacheDir: string | null,
  settingsFile: string,
): Promise<PhotoReport[]> {
  if (plan.files.length === 0) return [];
  const caches = Object.fromEntries(
    FORMATS.map((f) => [f, new ImageCache(cacheDir, EXT[f], LOOKS_WHOLE[f])]),
  ) as Record<PhotoFormat, ImageCache>;
  const reports: PhotoReport[] = [];
  for (const { source, variants } of plan.files) {
    const report: PhotoReport = {
      src: source.src,
      kept: 0,
      cached: 0,
      encoded: 0,
      ms: 0,
      bytes: { avif: 0, webp: 0, jpeg: 0 },
    };
    const started = performance.now();
    try {
      // One photo's files at a time, all at once: libvips spreads each over its own threads.
      // Staged in the plan's order once made, so the manifest's order is the same every build.
      const kept = variants.map((v) => staging.keepPage(v.file));
      const made = await Promise.all(
        variants.map(async (v, i) => {
          if (kept[i]) return null;
          const cached = caches[v.format].get(v.key);
          if (cached) {
            report.cached++;
            return cached;
          }
          const bytes = await encodeVariant(source.bytes, source.role, v);
          caches[v.format].put(v.key, bytes);
          report.encoded++;
          return bytes;
        }),
      );
      variants.forEach((v, i) => {
        const bytes = made[i];
        if (bytes) {
          staging.put(v.file, bytes);
          report.bytes[v.format] += bytes.length;
        } else if (staging.keep(v.file)) {
          report.kept++;
          report.bytes[v.format] += staging.extras.get(v.file) ?? 0;
        }
      });
    } catch (err) {
      throw new DataError([
        {
          file: settingsFile,
          record: source.record,
          field: source.field,
          message: `"${source.src}" could not be read to its end: ${err instanceof Error ? err.message : String(err)} (save it again from a photo editor)`,
        },
      ]);
    }
    if (report.encoded > 0) report.ms = performance.now() - started;
    reports.push(report);
  }
  for (const cache of Object.values(caches)) cache.prune();
  return reports;
}
