/**
 * The site's look as site.json sets it: two colours and a font. Everything else the stylesheet
 * colours with (dark and pale shades, the text on a button) is worked out from them here, and
 * each pair of text and background it makes is checked for contrast, so a theme cannot make the
 * site hard to read.
 */

/** A colour as #rrggbb, lower case. */
export type Hex = `#${string}`;

export const INK: Hex = '#1b2430';
export const WHITE: Hex = '#ffffff';
const BLACK: Hex = '#000000';

/** WCAG 2 AA for body text: the least contrast any text and its background may have. */
export const MIN_CONTRAST = 4.5;

/** #abc or #aabbcc, any case, as #aabbcc; null for anything else. */
export function parseHex(value: string): Hex | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return null;
  const digits = (m[1] ?? '').toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

const channels = (hex: Hex): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
];

/** Relative luminance, as WCAG 2 defines it. */
export function luminance(hex: Hex): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrast(a: Hex, b: Hex): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` moved `amount` (0 to 1) of the way to `b`. */
export function mix(a: Hex, b: Hex, amount: number): Hex {
  const [ca, cb] = [channels(a), channels(b)];
  const hex = ca
    .map((c, i) => Math.round(c + ((cb[i] ?? 0) - c) * amount))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('');
  return `#${hex}`;
}

/**
 * A ratio as contrast checkers show it, 3.68:1; one just short of the threshold is shown short
 * of it (4.49:1, not 4.50:1).
 */
export const ratio = (r: number) =>
  `${r < MIN_CONTRAST && r.toFixed(2) === MIN_CONTRAST.toFixed(2) ? (MIN_CONTRAST - 0.01).toFixed(2) : r.toFixed(2)}:1`;

/** The darkest shade of `hex` toward black (in steps of 5%) that reaches the contrast with white. */
export function darkEnough(hex: Hex): Hex {
  for (let amount = 0; amount <= 1; amount += 0.05) {
    const shade = mix(hex, BLACK, amount);
    if (contrast(shade, WHITE) >= MIN_CONTRAST) return shade;
  }
  return BLACK;
}

// ---------------------------------------------------------------------------------------------
// Fonts

/**
 * A bundled font: self-hosted from its @fontsource package, only its `latin` subset (all that
 * English and French need, œ, « », ’ and the no-break spaces included), regular and bold, both
 * preloaded. A face not there by the first paint is not used on that page (`font-display:
 * optional`; the next page has it from the cache): swapped in late, it rewrapped lines that a
 * fallback sized to the same average width breaks elsewhere, and Lighthouse measured /faq/ move by
 * 0.03 to 0.33. The fallback's metrics still make the page of a slow first visit look the same.
 */
export interface WebFont {
  family: string;
  /** The @fontsource package and its file names' prefix. */
  package: string;
  files: string;
  /** The local face shown until it loads, sized to match. */
  fallback: 'sans' | 'serif';
  /**
   * From @capsizecss/metrics 4.3.0 (the metrics Next.js and Fontaine size fallbacks with):
   * units per em, ascent, descent (negative), line gap, and the average width of a lower-case
   * letter in English text. tests/theme.test.ts checks the first four against the font file.
   */
  metrics: FontMetrics;
}

export interface FontMetrics {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  xWidthAvg: number;
}

/** The local faces fallbacks are made of, Liberation being metric-compatible on Linux. */
const FALLBACK_FACES: Record<WebFont['fallback'], { local: string[]; metrics: FontMetrics }> = {
  sans: {
    local: ['Arial', 'Liberation Sans'],
    metrics: { unitsPerEm: 2048, ascent: 1854, descent: -434, lineGap: 67, xWidthAvg: 913 },
  },
  serif: {
    local: ['Times New Roman', 'Liberation Serif'],
    metrics: { unitsPerEm: 2048, ascent: 1825, descent: -443, lineGap: 87, xWidthAvg: 832 },
  },
};

const SYSTEM_SANS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SYSTEM_SERIF = 'Georgia, "Times New Roman", serif';

/** theme.font's choices: the system's own font (nothing to download), or a bundled one. */
export const FONTS = {
  system: null,
  inter: {
    family: 'Inter',
    package: '@fontsource/inter',
    files: 'inter',
    fallback: 'sans',
    metrics: { unitsPerEm: 2048, ascent: 1984, descent: -494, lineGap: 0, xWidthAvg: 978 },
  },
  'source-sans-3': {
    family: 'Source Sans 3',
    package: '@fontsource/source-sans-3',
    files: 'source-sans-3',
    fallback: 'sans',
    metrics: { unitsPerEm: 1000, ascent: 1024, descent: -400, lineGap: 0, xWidthAvg: 418 },
  },
  'atkinson-hyperlegible': {
    family: 'Atkinson Hyperlegible',
    package: '@fontsource/atkinson-hyperlegible',
    files: 'atkinson-hyperlegible',
    fallback: 'sans',
    metrics: { unitsPerEm: 1000, ascent: 950, descent: -290, lineGap: 0, xWidthAvg: 443 },
  },
  merriweather: {
    family: 'Merriweather',
    package: '@fontsource/merriweather',
    files: 'merriweather',
    fallback: 'serif',
    metrics: { unitsPerEm: 2000, ascent: 1968, descent: -546, lineGap: 0, xWidthAvg: 970 },
  },
} as const satisfies Record<string, WebFont | null>;

export type FontChoice = keyof typeof FONTS;
export const FONT_CHOICES = Object.keys(FONTS) as [FontChoice, ...FontChoice[]];

/** The weights shipped: the pages' 600 and 800 use the bold, as browsers choose. */
export const FONT_WEIGHTS = [400, 700] as const;

/** fontsource's `latin` subset, as its own stylesheets give it. */
export const LATIN_RANGE =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';

/** A font file of a bundled font: its package's path, and its weight. */
export const fontFile = (font: WebFont, weight: number, ext: 'woff2' | 'woff', subset = 'latin') =>
  `${font.package}/files/${font.files}-${subset}-${weight}-normal.${ext}`;

/**
 * The fallback face's overrides, the way Next.js and Fontaine work them out: scaled so that its
 * average letter is as wide as the font's, and its ascent, descent and line gap made the font's
 * at that scale. Percentages, to two decimals.
 */
export function fallbackOverrides(font: WebFont): {
  sizeAdjust: string;
  ascent: string;
  descent: string;
  lineGap: string;
} {
  const m = font.metrics;
  const f = FALLBACK_FACES[font.fallback].metrics;
  const scale = m.xWidthAvg / m.unitsPerEm / (f.xWidthAvg / f.unitsPerEm);
  const pct = (n: number) => `${(n * 100).toFixed(2)}%`;
  return {
    sizeAdjust: pct(scale),
    ascent: pct(m.ascent / (m.unitsPerEm * scale)),
    descent: pct(Math.abs(m.descent) / (m.unitsPerEm * scale)),
    lineGap: pct(m.lineGap / (m.unitsPerEm * scale)),
  };
}

// ---------------------------------------------------------------------------------------------
// The theme

export interface ThemeSettings {
  colors?: { primary?: string; accent?: string };
  font?: FontChoice;
}

/** The bundled theme, used for what site.json leaves out. */
export const DEFAULT_THEME = { primary: '#0b3b60', accent: '#f2b705', font: 'system' } as const;

/** Every colour the stylesheet uses from the theme, each a CSS custom property. */
export interface Theme {
  font: FontChoice;
  /** Headings, links, dark bands; white text sits on it. */
  primary: Hex;
  /** Hover of links and the footer's band. */
  primaryDark: Hex;
  /** Pale backgrounds: chosen options, icons' discs. */
  primaryTint: Hex;
  /** Secondary text on the primary colour (a hero's lead). */
  onPrimaryMuted: Hex;
  /** Buttons that call to action. */
  accent: Hex;
  accentHover: Hex;
  /** The text on the accent: near-black or white, whichever reads better. */
  onAccent: Hex;
  /** The accent where it is text or an icon on the primary colour, or white where it would not read. */
  accentOnPrimary: Hex;
}

/** A colour pair the theme is refused for: what they are, the two colours and their ratio. */
export interface ContrastProblem {
  field: 'theme.colors.primary' | 'theme.colors.accent';
  message: string;
}

export function themeOf(settings: ThemeSettings | undefined): {
  theme: Theme;
  problems: ContrastProblem[];
} {
  const problems: ContrastProblem[] = [];
  const primary = (parseHex(settings?.colors?.primary ?? '') ??
    parseHex(DEFAULT_THEME.primary)) as Hex;
  const accent = (parseHex(settings?.colors?.accent ?? '') ??
    parseHex(DEFAULT_THEME.accent)) as Hex;

  const onWhite = contrast(primary, WHITE);
  if (onWhite < MIN_CONTRAST)
    problems.push({
      field: 'theme.colors.primary',
      message: `"${primary}" and white have a contrast of ${ratio(onWhite)}, below the ${MIN_CONTRAST}:1 headings, links and white text on it need (WCAG AA): choose a darker colour, such as ${darkEnough(primary)}`,
    });

  // Near-black or white on the accent, whichever has the more contrast.
  const onAccent = contrast(accent, INK) >= contrast(accent, WHITE) ? INK : WHITE;
  const onAccentRatio = contrast(accent, onAccent);
  if (onAccentRatio < MIN_CONTRAST)
    problems.push({
      field: 'theme.colors.accent',
      message: `"${accent}" has a contrast of ${ratio(onAccentRatio)} with its button text (${onAccent === INK ? `near-black ${INK}` : 'white'}), below the ${MIN_CONTRAST}:1 it needs (WCAG AA): choose a lighter or a darker colour`,
    });

  const primaryDark = mix(primary, BLACK, 0.3);
  // Pale enough for the primary colour's text on it (a primary just dark enough for white
  // gets a paler one).
  const tint =
    [0.9, 0.93, 0.96]
      .map((amount) => mix(primary, WHITE, amount))
      .find((pale) => contrast(primary, pale) >= MIN_CONTRAST) ?? WHITE;
  // Darker on hover with white text; with near-black text, as dark as it still reads.
  const accentHover =
    [0.15, 0.1, 0.05]
      .map((amount) => mix(accent, BLACK, amount))
      .find((shade) => contrast(shade, onAccent) >= MIN_CONTRAST) ?? accent;
  // Text on the primary colour also sits on its darker shade (the hero's gradient, the footer).
  const readsOnPrimary = (hex: Hex) => contrast(hex, primary) >= MIN_CONTRAST;
  return {
    theme: {
      font: settings?.font ?? DEFAULT_THEME.font,
      primary,
      primaryDark,
      primaryTint: tint,
      onPrimaryMuted: readsOnPrimary(tint) ? tint : WHITE,
      accent,
      accentHover,
      onAccent,
      accentOnPrimary: readsOnPrimary(accent) ? accent : WHITE,
    },
    problems,
  };
}

/** The custom properties every theme sets, by the Theme field they take. */
export const THEME_PROPERTIES = {
  '--color-primary': 'primary',
  '--color-primary-dark': 'primaryDark',
  '--color-primary-tint': 'primaryTint',
  '--color-on-primary-muted': 'onPrimaryMuted',
  '--color-accent': 'accent',
  '--color-accent-hover': 'accentHover',
  '--color-on-accent': 'onAccent',
  '--color-accent-on-primary': 'accentOnPrimary',
} as const satisfies Record<string, keyof Theme>;

/** The web font of a theme, or null for the system's. */
export const webFontOf = (theme: Theme): WebFont | null => FONTS[theme.font];

/**
 * The theme's part of the stylesheet: its custom properties, and the font's faces. `fontUrl`
 * gives a font file's URL from the stylesheet (beside it, in the assets folder).
 */
export function themeCss(theme: Theme, fontUrl: (weight: number) => string): string {
  const font = webFontOf(theme);
  const [r, g, b] = channels(theme.primary);
  const stack = font
    ? `"${font.family}", "${font.family} Fallback", ${font.fallback === 'serif' ? SYSTEM_SERIF : SYSTEM_SANS}`
    : SYSTEM_SANS;
  const properties = [
    ...Object.entries(THEME_PROPERTIES).map(([name, field]) => `${name}:${theme[field]}`),
    `--shadow:0 2px 10px rgb(${r} ${g} ${b} / 10%)`,
    `--font-body:${stack}`,
    `--font-heading:${stack}`,
  ];
  return `${font ? fontFaces(font, fontUrl) : ''}:root{${properties.join(';')}}`;
}

function fontFaces(font: WebFont, fontUrl: (weight: number) => string): string {
  const faces = FONT_WEIGHTS.map(
    (weight) =>
      `@font-face{font-family:"${font.family}";font-style:normal;font-weight:${weight};font-display:optional;src:url(${fontUrl(weight)}) format("woff2");unicode-range:${LATIN_RANGE}}`,
  );
  const o = fallbackOverrides(font);
  const local = FALLBACK_FACES[font.fallback].local.map((name) => `local("${name}")`).join(',');
  faces.push(
    `@font-face{font-family:"${font.family} Fallback";src:${local};size-adjust:${o.sizeAdjust};ascent-override:${o.ascent};descent-override:${o.descent};line-gap-override:${o.lineGap}}`,
  );
  return faces.join('');
}
