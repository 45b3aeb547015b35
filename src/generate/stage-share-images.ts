import { type Drawer, startDrawer } from '../share/drawer.js';
import { defaultCacheDir, ImageCache } from '../share/image-cache.js';
import type { ShareImage } from '../share/share-images.js';
import type { Inputs } from './inputs.js';
import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/**
 * Images sent to each drawing thread ahead of the one awaited, so that it draws while this
 * thread stores what it drew.
 */
const AHEAD = 4;

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
  const missing: ShareImage[] = [];
  for (const image of images) {
    if (staging.keep(image.file)) {
      counts.kept++;
      continue;
    }
    const bytes = cache.get(image.key);
    if (bytes) {
      counts.cached++;
      staging.put(image.file, bytes);
    } else missing.push(image);
  }
  if (missing.length > 0) await drawImages(staging, missing, cache);
  counts.drawn = missing.length;
  cache.prune();
  return counts;
}

/** Draws the images no build has drawn, AHEAD per thread in flight, each stored as it comes. */
async function drawImages(staging: Staging, images: readonly ShareImage[], cache: ImageCache) {
  const drawer: Drawer = startDrawer(images.length);
  const drawing: Array<{ image: ShareImage; png: Promise<Uint8Array> }> = [];
  const store = async () => {
    const next = drawing.shift();
    if (!next) return;
    const bytes = await next.png;
    cache.put(next.image.key, bytes);
    staging.put(next.image.file, bytes);
  };
  try {
    for (const image of images) {
      const png = drawer.png(image.card, image.brand);
      // Awaited in turn below; a failure meanwhile is not unhandled.
      png.catch(() => {});
      drawing.push({ image, png });
      if (drawing.length > AHEAD * drawer.size) await store();
    }
    while (drawing.length > 0) await store();
  } finally {
    await drawer.close();
  }
}
