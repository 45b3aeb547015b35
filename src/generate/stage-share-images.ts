import { CardPainter } from '../share/draw.js';
import { defaultCacheDir, ImageCache } from '../share/image-cache.js';
import type { ShareImage } from '../share/share-images.js';
import type { Inputs } from './inputs.js';
import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/** Images drawn between two releases of the renderer's memory (see CardPainter.release). */
const RELEASE_EVERY = 16;

export interface ShareImageCounts {
  /** Left in the output folder as they were (their name, and so their picture, unchanged). */
  kept: number;
  /** Copied from the cache of earlier builds. */
  cached: number;
  /** Drawn by this build. */
  drawn: number;
}

/**
 * The build's share images: those of the pages it made, and those of copied cities that are
 * gone from the output folder; a copied city's image still there is kept. `cacheDir` as in
 * GenerateOptions. Returns the counts, and the cache's folder (null for none).
 */
export async function stageBuildImages(
  staging: Staging,
  inputs: Inputs,
  plan: Plan,
  cacheDir: string | null | undefined,
): Promise<{ counts: ShareImageCounts; cacheDir: string | null }> {
  const cache = new ImageCache(cacheDir === undefined ? defaultCacheDir() : cacheDir);
  const missing = plan.copiedImages.filter((file) => !staging.keep(file));
  const counts = await stageShareImages(
    staging,
    [...plan.images, ...imagesOfCopiedUnits(inputs, plan, missing)],
    cache,
  );
  counts.kept += plan.copiedImages.length - missing.length;
  return { counts, cacheDir: cache.dir };
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

/**
 * Stages every page's share image: an image already in the output folder stays; one an earlier
 * build drew comes from the cache; only the rest are drawn. Images are named by what they show,
 * so "the same name" is "the same picture".
 */
export async function stageShareImages(
  staging: Staging,
  images: readonly ShareImage[],
  cache: ImageCache,
): Promise<ShareImageCounts> {
  const counts: ShareImageCounts = { kept: 0, cached: 0, drawn: 0 };
  let painter: CardPainter | null = null;
  for (const image of images) {
    if (staging.keep(image.file)) {
      counts.kept++;
      continue;
    }
    let bytes = cache.get(image.key);
    if (bytes) counts.cached++;
    else {
      painter ??= CardPainter.load();
      bytes = painter.png(image.card, image.brand);
      cache.put(image.key, bytes);
      if (++counts.drawn % RELEASE_EVERY === 0) await painter.release();
    }
    staging.put(image.file, bytes);
  }
  cache.prune();
  return counts;
}
