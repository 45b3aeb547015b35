import { createHash } from 'node:crypto';
import path from 'node:path';
import { assetFile, pathForFile } from '../urls.js';

/**
 * How an owner photo is shown: `photo` (settings `photos`) is cropped to 4:3 around its centre,
 * in widths up to PHOTO_WIDTHS' last, so a row of photos lines up; `portrait` (an adjuster's
 * `photo`) is cropped square around what draws the eye, at PORTRAIT_SIZES.
 */
export type PhotoRole = 'photo' | 'portrait';

/** A photo's shape on the page, width to height. */
const PHOTO_SHAPE = [4, 3] as const;

/** Widths of a photo's files: the ones below its own width, then its width capped at the last. */
export const PHOTO_WIDTHS = [320, 640, 960, 1280] as const;
/** A portrait shows at 96 CSS px: once, and twice for screens of two pixels to one. */
const PORTRAIT_SIZES = [96, 192] as const;

/** The formats a picture offers, the browser taking the first it reads; JPEG is the fallback. */
export const FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type PhotoFormat = (typeof FORMATS)[number];
const MIME: Record<PhotoFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};
const EXT: Record<PhotoFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/**
 * The encoders' settings. Part of every file's key: a change names new files, which later
 * builds encode rather than take from the cache.
 */
export const ENCODING = {
  avif: { quality: 50, effort: 4 },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 75, mozjpeg: true },
} as const;

/** One owner photo as read from the public folder (see readPhotos). */
export interface PhotoSource {
  /** As site.json names it: /images/team.jpg. */
  src: string;
  role: PhotoRole;
  /** Where site.json names it, for messages: the record and the field. */
  record: string;
  field: string;
  bytes: Uint8Array;
  /** sha256 of the bytes. */
  digest: string;
  /** Its size upright (EXIF orientation applied). */
  width: number;
  height: number;
}

/** One file the build makes of a photo. */
export interface PhotoVariant {
  /** Path under the output folder, named by `key`. */
  file: string;
  /** What the file holds: the photo's bytes, its size, format and the encoder. */
  key: string;
  format: PhotoFormat;
  width: number;
  height: number;
}

/** What a page needs to show a photo (paths on the site, before `links` puts them under its folder). */
export interface Picture {
  /**
   * The `<img>`'s width and height, so the page keeps its room: a photo's largest file's (CSS
   * scales it to its column), a portrait's smallest (the size it shows at).
   */
  width: number;
  height: number;
  /** One per format but the fallback: the `<source>`s, in FORMATS' order. */
  sources: Array<{ type: string; srcset: Array<[string, number]> }>;
  /** The fallback's files (JPEG), and the one an `<img>` without srcset loads. */
  srcset: Array<[string, number]>;
  src: string;
}

/** What pages show of the owner's photos: each picture by its src in site.json. */
export interface Pictures {
  /** Settings `photos`. */
  gallery: Record<string, Picture>;
  /** Adjusters' `photo`. */
  portraits: Record<string, Picture>;
}

/** Every photo of a build: its pictures, and the files to make of each source. */
export interface PhotoPlan extends Pictures {
  files: Array<{ source: PhotoSource; variants: PhotoVariant[] }>;
}

/** The build's pictures: what pages show (assets.photos), and the files that make them. */
export function planPhotos(sources: readonly PhotoSource[], encoder: string): PhotoPlan {
  const plan: PhotoPlan = { gallery: {}, portraits: {}, files: [] };
  const seen = new Set<string>();
  for (const source of sources) {
    const id = `${source.role} ${source.src}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const variants = variantsOf(source, encoder);
    (source.role === 'photo' ? plan.gallery : plan.portraits)[source.src] = pictureOf(
      variants,
      source.role,
    );
    plan.files.push({ source, variants });
  }
  return plan;
}

/** The sizes a source is made in: never wider than it is. */
function sizesOf(source: Pick<PhotoSource, 'role' | 'width' | 'height'>) {
  const { width, height } = source;
  if (source.role === 'portrait') {
    const side = Math.min(width, height);
    return capped(PORTRAIT_SIZES, side).map((w) => ({ width: w, height: w }));
  }
  // The widest 4:3 box the photo holds: all of a wide photo's height, a tall one's width.
  const [across, down] = PHOTO_SHAPE;
  const box = Math.min(width, Math.floor((height * across) / down));
  return capped(PHOTO_WIDTHS, box).map((w) => ({
    width: w,
    height: Math.round((w * down) / across),
  }));
}

/** The steps below `max`, then `max` itself capped at the last step. */
function capped(steps: readonly number[], max: number): number[] {
  const top = Math.min(max, steps[steps.length - 1] ?? max);
  return [...steps.filter((s) => s < top), top];
}

function variantsOf(source: PhotoSource, encoder: string): PhotoVariant[] {
  const base = `${source.role}-${nameOf(source.src)}`;
  return sizesOf(source).flatMap(({ width, height }) =>
    FORMATS.map((format) => {
      const key = createHash('sha256')
        .update(
          JSON.stringify([encoder, ENCODING[format], source.digest, source.role, width, height]),
        )
        .digest('hex');
      return {
        file: assetFile(`${base}-${width}`, key, EXT[format]),
        key,
        format,
        width,
        height,
      };
    }),
  );
}

/** A readable name for the photo's files: its file name, in letters, digits and hyphens. */
function nameOf(src: string): string {
  const stem = path.posix.basename(src).replace(/\.[^.]*$/, '');
  return (
    stem
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'photo'
  );
}

function pictureOf(variants: readonly PhotoVariant[], role: PhotoRole): Picture {
  const of = (format: PhotoFormat): Array<[string, number]> =>
    variants.filter((v) => v.format === format).map((v) => [pathForFile(v.file), v.width]);
  const shown = variants[role === 'portrait' ? 0 : variants.length - 1] as PhotoVariant;
  const jpeg = of('jpeg');
  // The fallback's src: a middle size, for the rare browser without srcset.
  const src = (jpeg[Math.min(1, jpeg.length - 1)] as [string, number])[0];
  return {
    width: shown.width,
    height: shown.height,
    sources: FORMATS.filter((f) => f !== 'jpeg').map((f) => ({ type: MIME[f], srcset: of(f) })),
    srcset: jpeg,
    src,
  };
}
