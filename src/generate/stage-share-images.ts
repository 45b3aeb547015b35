import { CardPainter } from '../share/draw.js';
import type { ImageCache } from '../share/image-cache.js';
import type { ShareImage } from '../share/share-images.js';

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
