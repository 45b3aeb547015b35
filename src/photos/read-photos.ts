import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DataError, type DataIssue } from '../site/errors.js';
import type { SiteSettings } from '../site/schema.js';
import type { PhotoRole, PhotoSource } from './plan.js';
import { loadSharp } from './sharp.js';

/** Below this a photo is a thumbnail, not a picture a page can show sharp. */
const MIN_SIDE: Record<PhotoRole, number> = { photo: 320, portrait: 96 };
/** Beyond these a file is not a photo the build should decode: a camera's largest is ~60 MP. */
const MAX_PIXELS = 100_000_000;
const MAX_BYTES = 50 * 1024 * 1024;

/** Where site.json names a photo: its record, its field and its path. */
interface Named {
  src: string;
  role: PhotoRole;
  record: string;
  field: string;
}

/** Every photo site.json names: `photos[i].src`, then each adjuster's `photo`. */
function namedPhotos(settings: SiteSettings): Named[] {
  return [
    ...(settings.photos ?? []).map((p, i) => ({
      src: p.src,
      role: 'photo' as const,
      record: `photos[${i}]`,
      field: 'src',
    })),
    ...(settings.business?.adjusters ?? []).flatMap((a, i) =>
      a.photo
        ? [
            {
              src: a.photo,
              role: 'portrait' as const,
              record: `business.adjusters[${i}]`,
              field: 'photo',
            },
          ]
        : [],
    ),
  ];
}

/**
 * Reads every photo site.json names from the public folder, and its size upright. A photo that
 * is missing, not an image, or too small or large to show is a DataError naming site.json, the
 * record and the field; every one is reported at once.
 */
export async function readPhotos(
  settings: SiteSettings,
  settingsFile: string,
  publicDir: string | null | undefined,
): Promise<PhotoSource[]> {
  const named = namedPhotos(settings);
  if (named.length === 0) return [];
  const issues: DataIssue[] = [];
  const sources: PhotoSource[] = [];
  for (const n of named) {
    const read = await readOne(n, publicDir);
    if ('error' in read)
      issues.push({ file: settingsFile, record: n.record, field: n.field, message: read.error });
    else sources.push(read);
  }
  if (issues.length > 0) throw new DataError(issues);
  return sources;
}

async function readOne(
  n: Named,
  publicDir: string | null | undefined,
): Promise<PhotoSource | { error: string }> {
  if (!publicDir)
    return {
      error: `"${n.src}" is in the public folder, and this build has none: create public/ beside data/ (or name it with --public) and put the photo there`,
    };
  const file = path.join(publicDir, ...n.src.split('/').filter(Boolean));
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info?.isFile()) return { error: `"${n.src}": no such file in the public folder (${file})` };
  if (info.size > MAX_BYTES)
    return {
      error: `"${n.src}" is ${(info.size / 1024 / 1024).toFixed(0)} MB: a photo must be under ${MAX_BYTES / 1024 / 1024} MB (export it smaller)`,
    };
  const bytes = readFileSync(file);
  const sharp = loadSharp();
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    ({ width, height } = meta.autoOrient);
  } catch {
    return {
      error: `"${n.src}" is not an image the build can read: use a JPEG, PNG, WebP or AVIF file`,
    };
  }
  const min = MIN_SIDE[n.role];
  // A photo is cropped to 4:3: its box must be MIN_SIDE wide.
  const small =
    n.role === 'portrait' ? Math.min(width, height) < min : width < min || height * 4 < min * 3;
  if (small)
    return {
      error: `"${n.src}" is ${width}x${height} px: ${n.role === 'portrait' ? `a portrait must be at least ${min} px on each side` : `a photo must be at least ${min} px wide and ${(min * 3) / 4} px high`}`,
    };
  if (width * height > MAX_PIXELS)
    return {
      error: `"${n.src}" is ${width}x${height} px: a photo must be under ${MAX_PIXELS / 1_000_000} megapixels (export it smaller)`,
    };
  return {
    src: n.src,
    role: n.role,
    record: n.record,
    field: n.field,
    bytes,
    digest: createHash('sha256').update(bytes).digest('hex'),
    width,
    height,
  };
}
