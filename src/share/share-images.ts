import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '../routes.js';
import type { Site } from '../site/model.js';
import { assetFile } from '../urls.js';
import { cardAlt, cardFooter, cardFor, type ShareCard } from './cards.js';

/** A share image of the build: its file under the output folder, what it shows and says. */
export interface ShareImage {
  file: string;
  card: ShareCard;
  alt: string;
  /** Names the image's bytes: the same key, the same picture (see ImageCache). */
  key: string;
}

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

/**
 * The share image of every page, named by a hash of what it is drawn from: the card, the brand,
 * and the code that draws it (`version`, the compiled CLI's identity, and the versions of the
 * font and the renderer). So an image whose name did not change need not be drawn again, and a
 * page's link to its image changes exactly when the picture does.
 */
export class ShareImages {
  private readonly byCard = new Map<string, ShareImage>();
  private readonly byPage = new WeakMap<Page, ShareImage>();
  private readonly drawnBy: string;

  /** `version`: the code's identity (null running from sources), sent to render workers too. */
  constructor(
    private readonly site: Site,
    readonly version: string | null,
  ) {
    this.drawnBy = `${version ?? 'sources'}:${COMPILED_DRAWING ?? drawingLibraries()}`;
  }

  /** The image a page links to; a city's pages share one. */
  of(page: Page): ShareImage {
    // Asked for every page by the plan, again by its head and for the list of images.
    const known = this.byPage.get(page);
    if (known) return known;
    const card = cardFor(page);
    let image = this.byCard.get(card.id);
    if (!image) {
      const { siteName } = this.site.settings;
      const key = createHash('sha256')
        .update(JSON.stringify([this.drawnBy, card, siteName, cardFooter(this.site)]))
        .digest('hex');
      image = {
        file: assetFile(`share-${card.id}`, key, 'png'),
        card,
        alt: cardAlt(card, this.site),
        key,
      };
      this.byCard.set(card.id, image);
    }
    this.byPage.set(page, image);
    return image;
  }

  /** Every page's image, each once, in the pages' order. */
  all(pages: readonly Page[]): ShareImage[] {
    const seen = new Set<string>();
    const out: ShareImage[] = [];
    for (const page of pages) {
      const image = this.of(page);
      if (!seen.has(image.file)) out.push(image);
      seen.add(image.file);
    }
    return out;
  }
}

const imagesBySite = new WeakMap<Site, ShareImages>();

/** The site's share images: one table per site, so every page and thread names them alike. */
export function shareImages(site: Site, version: string | null): ShareImages {
  let images = imagesBySite.get(site);
  if (!images) {
    images = new ShareImages(site, version);
    imagesBySite.set(site, images);
  }
  return images;
}

/** The compiled CLI carries the versions below (scripts/build-cli.mjs); from sources, looked up. */
declare const __CLAIMSITE_DRAWING__: string | undefined;
const COMPILED_DRAWING = typeof __CLAIMSITE_DRAWING__ === 'string' ? __CLAIMSITE_DRAWING__ : null;

let libraries: string | null = null;

/** The font's and the renderer's versions: a new one may draw other pixels. */
function drawingLibraries(): string {
  libraries ??= ['@fontsource/inter', '@resvg/resvg-js', 'opentype.js']
    .map((name) => {
      const file = createRequire(import.meta.url).resolve(`${name}/package.json`);
      return `${name}@${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
    })
    .join(',');
  return libraries;
}
