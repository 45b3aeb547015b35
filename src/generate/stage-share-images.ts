import { isCompiled } from '../root.js';
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
  drawnAhead: ReadonlySet<string> = new Set(),
): Promise<{ counts: ShareImageCounts; cacheDir: string | null }> {
  const cache = new ImageCache(cacheDirOf(cacheDir));
  const missing = plan.copiedImages.filter((file) => !staging.keep(file));
  const counts = await stageShareImages(
    staging,
    [...plan.images, ...imagesOfCopiedUnits(inputs, plan, missing)],
    cache,
    drawnAhead,
  );
  counts.kept += plan.copiedImages.length - missing.length;
  return { counts, cacheDir: cache.dir };
}

const cacheDirOf = (cacheDir: string | null | undefined) =>
  cacheDir === undefined ? defaultCacheDir() : cacheDir;

/** Images being drawn into the cache while the pages render (see drawAhead). */
export interface DrawingAhead {
  /** Once every image is drawn: the keys of those written into the cache. */
  finish(): Promise<Set<string>>;
  /** Stops drawing at once (the build failed). */
  stop(): void;
}

/**
 * Starts drawing, on threads of their own, the plan's images that are neither in the output
 * folder nor in the cache, straight into the cache, while this thread renders the pages: the
 * cores the render leaves idle draw them, and stageBuildImages then finds them cached. Only
 * with the compiled CLI (from sources they would be drawn on this thread) and a cache; null
 * when there is nothing to draw.
 */
export function drawAhead(
  staging: Staging,
  plan: Plan,
  cacheDir: string | null | undefined,
): DrawingAhead | null {
  const cache = new ImageCache(cacheDirOf(cacheDir));
  const dir = cache.dir;
  if (!dir || !isCompiled()) return null;
  const missing = plan.images.filter((i) => !staging.keepPage(i.file) && !cache.has(i.key));
  if (missing.length === 0) return null;
  const drawer = startDrawer(missing.length, { afterRender: false });
  const drawn = new Set<string>();
  const all = Promise.all(
    missing.map((image) =>
      drawer.toCache(image.card, image.brand, dir, image.key).then(
        (cached) => void (cached && drawn.add(image.key)),
        // Drawn again after the pages, where its failure is the build's.
        () => {},
      ),
    ),
  );
  return {
    async finish() {
      await all;
      await drawer.close();
      return drawn;
    },
    stop: () => void drawer.close(),
  };
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
async function stageShareImages(
  staging: Staging,
  images: readonly ShareImage[],
  cache: ImageCache,
  drawnAhead: ReadonlySet<string> = new Set(),
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
      // Drawn by this build, ahead: counted as drawn, as it would have been here.
      if (drawnAhead.has(image.key)) counts.drawn++;
      else counts.cached++;
      staging.put(image.file, bytes);
    } else missing.push(image);
  }
  if (missing.length > 0) await drawImages(staging, missing, cache);
  counts.drawn += missing.length;
  if (drawnAhead.size > 0) cache.markWritten();
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
