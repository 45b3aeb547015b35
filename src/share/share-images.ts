import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from '../root.js';
import type { Page } from '../routes.js';
import { inLanguage, type Site } from '../site/model.js';
import { absoluteUrl, assetFile, pathForFile } from '../urls.js';
import { cardAlt, cardFooter, cardFor, type ShareCard } from './cards.js';
import type { CardBrand } from './draw.js';

/** A share image of the build: its file under the output folder, what it shows and says. */
export interface ShareImage {
  file: string;
  /** Its absolute URL on the site, as og:image gives it. */
  url: string;
  card: ShareCard;
  alt: string;
  /** Names the image's bytes: the same key, the same picture (see ImageCache). */
  key: string;
  /** The brand it shows, in the card's language. */
  brand: CardBrand;
}

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

/**
 * The share image of every page, named by a hash of what it is drawn from: the card, the brand
 * (name, number, theme, logo), and what draws it (`drawingIdentity`). So an image whose name did not change need not be drawn
 * again, and a page's link to its image changes exactly when the picture does; a change to the
 * templates or the build leaves every image as it was.
 */
export class ShareImages {
  private readonly byCard = new Map<string, ShareImage>();
  /** The last page asked for: its head asks again. Not every page's, which would grow with the site. */
  private last: { page: Page; image: ShareImage } | null = null;
  private readonly drawnBy = COMPILED_DRAWING ?? drawingIdentity(packageRoot());

  constructor(private readonly site: Site) {}

  /** The image a page links to; a city's pages share one. */
  of(page: Page): ShareImage {
    // Asked for every page by the plan, again by its head and for the list of images.
    if (this.last?.page === page) return this.last.image;
    const site = inLanguage(this.site, page.lang);
    const card = cardFor(page, site);
    let image = this.byCard.get(card.id);
    if (!image) {
      const brand = cardBrandOf(site);
      // The logo by its picture, not where it is read from.
      const drawn = { ...brand, logo: brand.logo && { ...brand.logo, file: null } };
      const key = createHash('sha256')
        .update(JSON.stringify([this.drawnBy, card, drawn]))
        .digest('hex');
      const file = assetFile(`share-${card.id}`, key, 'png');
      image = {
        file,
        url: absoluteUrl(this.site.settings.baseUrl, pathForFile(file)),
        card,
        alt: cardAlt(card, site),
        brand,
        key,
      };
      this.byCard.set(card.id, image);
    }
    this.last = { page, image };
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

/** What every card of a site's language shows of the brand. */
export function cardBrandOf(site: Site): CardBrand {
  const { theme, logo } = site;
  return {
    siteName: site.settings.siteName,
    footer: cardFooter(site),
    colors: {
      primary: theme.primary,
      accent: theme.accent,
      onAccent: theme.onAccent,
      accentOnPrimary: theme.accentOnPrimary,
      muted: theme.onPrimaryMuted,
    },
    font: theme.font,
    logo: logo && {
      file: logo.file,
      type: logo.type,
      width: logo.width,
      height: logo.height,
      digest: logo.digest,
    },
  };
}

const imagesBySite = new WeakMap<Site, ShareImages>();

/** The site's share images: one table per site, so every page and thread names them alike. */
export function shareImages(site: Site): ShareImages {
  let images = imagesBySite.get(site);
  if (!images) {
    images = new ShareImages(site);
    imagesBySite.set(site, images);
  }
  return images;
}

/**
 * What draws the images: these files, and these libraries at their versions. The compiled CLI
 * carries their hash (scripts/build-cli.mjs hashes the same list, and a test checks the two
 * agree); running from sources, it is taken here.
 */
export const DRAWING_SOURCES = [
  'src/share/cards.ts',
  'src/share/draw.ts',
  'src/share/png.ts',
  'src/share/share-images.ts',
  'src/share/woff.ts',
  'src/site/shield.ts',
  'src/site/theme.ts',
];
export const DRAWING_LIBRARIES = [
  '@fontsource/inter',
  '@fontsource/source-sans-3',
  '@fontsource/atkinson-hyperlegible',
  '@fontsource/merriweather',
  '@resvg/resvg-js',
  'opentype.js',
];

declare const __CLAIMSITE_DRAWING__: string | undefined;
const COMPILED_DRAWING = typeof __CLAIMSITE_DRAWING__ === 'string' ? __CLAIMSITE_DRAWING__ : null;

/** A hash of the drawing code's files and the drawing libraries' versions. */
export function drawingIdentity(root: string): string {
  const hash = createHash('sha256');
  for (const file of DRAWING_SOURCES)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  const require = createRequire(path.join(root, 'package.json'));
  for (const name of DRAWING_LIBRARIES) {
    const { version } = JSON.parse(
      readFileSync(require.resolve(`${name}/package.json`), 'utf8'),
    ) as {
      version: string;
    };
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}
