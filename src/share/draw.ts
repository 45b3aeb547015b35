import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { threadId } from 'node:worker_threads';
import type { Font, Glyph } from 'opentype.js';
import { SHIELD } from '../site/shield.js';
import { FONT_WEIGHTS, FONTS, type FontChoice, fontFile } from '../site/theme.js';
import type { ShareCard } from './cards.js';
import { encodePng } from './png.js';
import { SHARE_HEIGHT, SHARE_WIDTH } from './share-images.js';
import { sfntOfWoff } from './woff.js';

/**
 * Draws share images: a card's text laid out in the theme's font, bold, as outlines (so no font
 * need be installed where the build runs, and nothing is fetched; Inter for the system's font),
 * in the theme's colours, rendered by resvg and encoded as src/share/png.ts says. The libraries load only when an image has to
 * be drawn: most builds reuse every image.
 */
export interface CardBrand {
  siteName: string;
  footer: string;
  /** From the theme (src/site/theme.ts), each a pair that reads. */
  colors: {
    /** The background, under white text. */
    primary: string;
    /** The band at the bottom, and its text. */
    accent: string;
    onAccent: string;
    /** The kicker and the detail, on the background. */
    accentOnPrimary: string;
    muted: string;
  };
  font: FontChoice;
  /** The owner's logo, in place of the shield and the name; null for the shield. */
  logo: { file: string; type: string; width: number; height: number; digest: string } | null;
}

const MARGIN = 80;
/** The logo's height on a card, at most. */
const LOGO_HEIGHT = 64;
const TEXT_WIDTH = SHARE_WIDTH - 2 * MARGIN;
/** The gold band at the bottom, which says how to reach the business. */
const BAND_TOP = 520;

export class CardPainter {
  /** The font of the card being drawn: Latin first, Latin Extended for the letters it lacks. */
  private fonts: readonly Font[] = [];
  private readonly fontsByChoice = new Map<FontChoice, readonly Font[]>();
  private readonly logos = new Map<string, string>();

  private constructor(
    private readonly parse: (bytes: Buffer) => Font,
    private readonly render: (svg: string) => Uint8Array,
    /** An SVG as a PNG `height` pixels tall, its lettering in the font of these files. */
    private readonly rasterize: (svg: string, height: number, fonts: LetteringFonts) => Uint8Array,
  ) {}

  static load(): CardPainter {
    // Required, not imported: the compiled CLI runs from V8's code cache, without dynamic import.
    const require = createRequire(import.meta.url);
    const opentype = require('opentype.js') as typeof import('opentype.js');
    const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
    return new CardPainter(
      (bytes) =>
        opentype.parse(
          bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        ),
      (svg) => {
        const image = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
        return encodePng(image.pixels, image.width, image.height);
      },
      (svg, height, { files, family }) =>
        new Resvg(svg, {
          fitTo: { mode: 'height', value: height },
          // Every family the logo may name is the theme's font: nothing of the machine's is used.
          font: {
            loadSystemFonts: false,
            fontFiles: files,
            defaultFontFamily: family,
            sansSerifFamily: family,
            serifFamily: family,
            monospaceFamily: family,
            cursiveFamily: family,
            fantasyFamily: family,
          },
        })
          .render()
          .asPng(),
    );
  }

  /** A theme's bold faces, read once (Inter's for the system's font, which is not ours to draw). */
  private fontsOf(choice: FontChoice): readonly Font[] {
    let fonts = this.fontsByChoice.get(choice);
    if (!fonts) {
      const font = FONTS[choice] ?? FONTS.inter;
      const require = createRequire(import.meta.url);
      fonts = ['latin', 'latin-ext'].map((subset) =>
        this.parse(readFileSync(require.resolve(fontFile(font, 700, 'woff', subset)))),
      );
      this.fontsByChoice.set(choice, fonts);
    }
    return fonts;
  }

  /**
   * The owner's logo as a data URL, read once. An SVG logo with lettering (`<text>`) is drawn
   * here first, at twice the card's size, its letters in the theme's font: resvg draws an SVG
   * image inside another without any font, and its name would be blank.
   */
  private logoOf(logo: NonNullable<CardBrand['logo']>, font: FontChoice): string {
    const key = `${logo.digest}:${font}`;
    let url = this.logos.get(key);
    if (!url) {
      const bytes = readFileSync(logo.file);
      const text = logo.type === 'image/svg+xml' ? bytes.toString('utf8') : '';
      url = /<text[\s>]/.test(text)
        ? `data:image/png;base64,${Buffer.from(this.rasterize(text, 2 * LOGO_HEIGHT, letteringFonts(font))).toString('base64')}`
        : `data:${logo.type};base64,${bytes.toString('base64')}`;
      this.logos.set(key, url);
    }
    return url;
  }

  /**
   * Lets go of the memory of the images drawn so far. resvg's rendered image (3 MB of pixels)
   * is freed only once V8 collects its JavaScript object, and V8, which does not see that
   * memory, has no reason to: drawing 1,700 images took a build from 260 MB to 570 MB. A minor
   * collection finds them (they die young), and their finalizers run on the next turn of the
   * event loop. resvg-js fixed this after 2.6.2 by telling V8 of the memory; not released yet.
   */
  async release(): Promise<void> {
    collectGarbage({ type: 'minor' });
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** The card as a PNG of SHARE_WIDTH x SHARE_HEIGHT pixels. */
  png(card: ShareCard, brand: CardBrand): Uint8Array {
    return this.render(this.svg(card, brand));
  }

  /** The card as SVG, every letter an outline. */
  svg(card: ShareCard, brand: CardBrand): string {
    this.fonts = this.fontsOf(brand.font);
    const { colors } = brand;
    const parts: string[] = [this.frame(brand)];
    // Between the brand and the band: the kicker, the title in up to three lines (two with a
    // kicker or a detail), the detail; the title's size comes down until it fits.
    let y = 200;
    if (card.kicker) {
      y = 236;
      parts.push(this.line(card.kicker, MARGIN, y, 44, colors.accentOnPrimary));
    }
    const maxLines = card.kicker || card.detail ? 2 : 3;
    const { size, lines } = this.wrap(card.title, maxLines, card.kicker ? 96 : 84);
    for (const [i, text] of lines.entries()) {
      y += i === 0 && !card.kicker ? size * 0.45 : size * 1.08;
      parts.push(this.line(text, MARGIN, y, size, '#fff'));
    }
    if (card.detail) parts.push(this.line(card.detail, MARGIN, y + 64, 44, colors.muted));
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" viewBox="0 0 ${SHARE_WIDTH} ${SHARE_HEIGHT}">${parts.join('')}</svg>`;
  }

  private framed: { brand: string; svg: string } | null = null;

  /** What every card of a brand shares: the background, the logo, the band. Made once. */
  private frame(brand: CardBrand): string {
    const id = JSON.stringify(brand);
    if (this.framed?.brand !== id) {
      const { footer, colors } = brand;
      const svg =
        `<rect width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" fill="${colors.primary}"/>` +
        this.brandMark(brand) +
        `<rect y="${BAND_TOP}" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT - BAND_TOP}" fill="${colors.accent}"/>` +
        this.line(footer, MARGIN, 592, this.fit(footer, 44, TEXT_WIDTH), colors.onAccent);
      this.framed = { brand: id, svg };
    }
    return this.framed.svg;
  }

  /**
   * The top left: the owner's logo on a white plate (it is made for a light page, and the card
   * is the primary colour), or the shield in the accent colour with the name beside it.
   */
  private brandMark({ siteName, colors, logo, font }: CardBrand): string {
    if (!logo) {
      const { shield, check } = SHIELD;
      return (
        `<g transform="translate(${MARGIN} 64) scale(2)"><path d="${shield}" fill="${colors.accent}"/><path d="${check}" fill="none" stroke="${colors.primary}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></g>` +
        this.line(siteName, MARGIN + 84, 114, this.fit(siteName, 44, TEXT_WIDTH - 84), '#fff')
      );
    }
    // At most 64 px tall and the text's width wide, its shape kept.
    const scale = Math.min(LOGO_HEIGHT / logo.height, TEXT_WIDTH / 2 / logo.width);
    const [width, height] = [logo.width * scale, logo.height * scale];
    const pad = 16;
    return (
      `<rect x="${MARGIN - pad}" y="${64 - pad}" width="${width + 2 * pad}" height="${height + 2 * pad}" rx="12" fill="#fff"/>` +
      `<image x="${MARGIN}" y="64" width="${width}" height="${height}" href="${this.logoOf(logo, font)}"/>`
    );
  }

  /**
   * One line of text as filled outlines, its baseline at y: each letter's outline made once per
   * size and moved into place (making outlines was a third of an image's time).
   */
  private line(text: string, x: number, y: number, size: number, fill: string): string {
    let letters = '';
    let prev: { glyph: Glyph; font: Font } | null = null;
    for (const char of text) {
      const { glyph, font } = this.glyph(char);
      const scale = size / font.unitsPerEm;
      if (prev && prev.font === font) x += font.getKerningValue(prev.glyph, glyph) * scale;
      const d = this.outline(font, glyph, size);
      if (d) letters += `<path transform="translate(${x.toFixed(1)} ${y})" d="${d}"/>`;
      x += glyph.advanceWidth * scale;
      prev = { glyph, font };
    }
    return `<g fill="${fill}">${letters}</g>`;
  }

  private readonly outlines = new Map<Font, Map<string, string>>();

  /** A letter's outline at a size, at the origin: path data, empty for a space. */
  private outline(font: Font, glyph: Glyph, size: number): string {
    let ofFont = this.outlines.get(font);
    if (!ofFont) {
      ofFont = new Map();
      this.outlines.set(font, ofFont);
    }
    const key = `${glyph.index}:${size}`;
    let d = ofFont.get(key);
    if (d === undefined) {
      d = glyph.getPath(0, 0, size).toPathData(2);
      ofFont.set(key, d);
    }
    return d;
  }

  private width(text: string, size: number): number {
    let w = 0;
    let prev: { glyph: Glyph; font: Font } | null = null;
    for (const char of text) {
      const { glyph, font } = this.glyph(char);
      if (prev && prev.font === font) w += font.getKerningValue(prev.glyph, glyph);
      w += glyph.advanceWidth;
      prev = { glyph, font };
    }
    return (w * size) / (this.fonts[0]?.unitsPerEm ?? 1000);
  }

  private glyph(char: string): { glyph: Glyph; font: Font } {
    for (const font of this.fonts) {
      const glyph = font.charToGlyph(char);
      if (glyph.index !== 0) return { glyph, font };
    }
    throw new Error(
      `The share image's font has no letter "${char}" (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`,
    );
  }

  /** The largest size up to `size` (by 4 px) at which the text fits the width on one line. */
  private fit(text: string, size: number, width: number): number {
    while (size > 24 && this.width(text, size) > width) size -= 4;
    return size;
  }

  /** The title in at most `maxLines` lines, broken after spaces and hyphens, as large as fits. */
  private wrap(title: string, maxLines: number, start: number): { size: number; lines: string[] } {
    // Words keep their hyphen: "Saint-Jean-sur-Richelieu" may break after any of its dashes.
    const words = title.match(/[^\s-]+-*|-+/g) ?? [title];
    for (let size = start; ; size -= 4) {
      const lines: string[] = [];
      let current = '';
      for (const word of words) {
        const joined =
          current === '' || current.endsWith('-') ? current + word : `${current} ${word}`;
        if (current !== '' && this.width(joined, size) > TEXT_WIDTH) {
          lines.push(current);
          current = word;
        } else current = joined;
      }
      lines.push(current);
      const fits =
        lines.length <= maxLines && lines.every((l) => this.width(l, size) <= TEXT_WIDTH);
      if (fits || size <= 32) return { size, lines: lines.slice(0, maxLines) };
    }
  }
}

/** Font files resvg reads (TrueType), and the family they are. */
interface LetteringFonts {
  files: string[];
  family: string;
}

const lettering = new Map<FontChoice, LetteringFonts>();

/**
 * The theme's font (Inter's for the system's) as files resvg can read: the bundled WOFF files
 * unpacked into TrueType once, into a folder of the system's temporary files that every build
 * shares (named by their bytes' digest, written whole or not at all).
 */
function letteringFonts(choice: FontChoice): LetteringFonts {
  let fonts = lettering.get(choice);
  if (!fonts) {
    const font = FONTS[choice] ?? FONTS.inter;
    const require = createRequire(import.meta.url);
    const dir = path.join(os.tmpdir(), `claimsite-fonts-${process.getuid?.() ?? 'user'}`);
    mkdirSync(dir, { recursive: true });
    const files = FONT_WEIGHTS.flatMap((weight) =>
      ['latin', 'latin-ext'].map((subset) => {
        const woff = readFileSync(require.resolve(fontFile(font, weight, 'woff', subset)));
        const digest = createHash('sha256').update(woff).digest('hex').slice(0, 16);
        const file = path.join(dir, `${font.files}-${subset}-${weight}-${digest}.ttf`);
        if (!existsSync(file)) {
          const tmp = `${file}.${process.pid}.${threadId}.tmp`;
          writeFileSync(tmp, sfntOfWoff(woff));
          renameSync(tmp, file);
        }
        return file;
      }),
    );
    fonts = { files, family: font.family };
    lettering.set(choice, fonts);
  }
  return fonts;
}

type Collect = (options: { type: 'minor' | 'major' }) => void;
let collect: Collect | null = null;

/** V8's own collector, as `--expose-gc` gives it, asked for here so no flag need be passed. */
export function collectGarbage(options: { type: 'minor' | 'major' }): void {
  if (!collect) {
    const exposed = (globalThis as { gc?: Collect }).gc;
    if (exposed) collect = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as Collect;
    }
  }
  collect(options);
}
