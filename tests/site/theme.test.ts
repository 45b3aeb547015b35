import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import { describe, expect, it } from 'vitest';
import {
  contrast,
  FONT_CHOICES,
  FONT_WEIGHTS,
  FONTS,
  fontFile,
  INK,
  LATIN_RANGE,
  MIN_CONTRAST,
  parseHex,
  ratio,
  THEME_PROPERTIES,
  type Theme,
  themeCss,
  themeOf,
  type WebFont,
  WHITE,
} from '../../src/site/theme.js';

const require = createRequire(import.meta.url);

describe('colours', () => {
  it('reads #rgb and #rrggbb, any case, and nothing else', () => {
    expect(parseHex('#0B3B60')).toBe('#0b3b60');
    expect(parseHex('#fa0')).toBe('#ffaa00');
    for (const bad of ['#1a5e2', '0b3b60', '#0b3b6g', 'navy', '#0b3b6000', ''])
      expect(parseHex(bad), bad).toBeNull();
  });

  it('measures contrast as WCAG 2 does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // The lightest grey that reaches AA on white, and the next one that does not.
    expect(contrast('#767676', WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#777777', WHITE)).toBeLessThan(4.5);
    expect(ratio(contrast('#767676', WHITE))).toBe('4.54:1');
  });
});

describe('a theme', () => {
  const pairs = (t: Theme): Array<[string, string, string]> => [
    ['primary on white', t.primary, WHITE],
    ['white on primary', WHITE, t.primary],
    ['headings on white', t.primaryDark, WHITE],
    ['muted on primary', t.onPrimaryMuted, t.primary],
    ['muted on primary-dark', t.onPrimaryMuted, t.primaryDark],
    ['button text on accent', t.onAccent, t.accent],
    ['button text on accent hover', t.onAccent, t.accentHover],
    ['accent as text on primary', t.accentOnPrimary, t.primary],
    ['accent as text on primary-dark', t.accentOnPrimary, t.primaryDark],
    ['primary on its tint', t.primary, t.primaryTint],
  ];

  it('makes every pair of text and background it colours readable (4.5:1), whatever the two colours', () => {
    // Dark ones, and ones just dark enough for white text (4.5:1 to 4.6:1).
    const primaries = [
      '#0b3b60',
      '#1d4d2b',
      '#6b0f1a',
      '#000000',
      '#595959',
      '#767676',
      '#0071c2',
      '#d1300f',
      '#7f6b00',
    ];
    const accents = ['#f2b705', '#b5179e', '#ffffff', '#00e5ff', '#1b2430', '#ff7a00', '#6bd66b'];
    for (const primary of primaries)
      for (const accent of accents) {
        const { theme, problems } = themeOf({ colors: { primary, accent } });
        expect(problems, `${primary} ${accent}`).toEqual([]);
        for (const [what, fg, bg] of pairs(theme))
          expect(
            contrast(fg as never, bg as never),
            `${primary}/${accent}: ${what}`,
          ).toBeGreaterThanOrEqual(MIN_CONTRAST);
      }
  });

  it('picks near-black or white for the button text, whichever reads better', () => {
    expect(themeOf({ colors: { accent: '#f2b705' } }).theme.onAccent).toBe(INK);
    expect(themeOf({ colors: { accent: '#b5179e' } }).theme.onAccent).toBe(WHITE);
  });

  it('refuses a primary colour too light for white text, naming both, the ratio, and one that would do', () => {
    const { problems } = themeOf({ colors: { primary: '#3b82f6' } });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe('theme.colors.primary');
    expect(problems[0]?.message).toMatch(
      /^"#3b82f6" and white have a contrast of 3\.68:1, below the 4\.5:1 .*: choose a darker colour, such as (#[0-9a-f]{6})$/,
    );
    const suggested = /such as (#[0-9a-f]{6})$/.exec(problems[0]?.message ?? '')?.[1] ?? '';
    expect(themeOf({ colors: { primary: suggested } }).problems).toEqual([]);
  });

  it('refuses an accent no button text reads on, naming the pair and the ratio', () => {
    // Mid grey: 3.95:1 with white and 3.97:1 with near-black.
    const { problems } = themeOf({ colors: { accent: '#808080' } });
    expect(problems).toEqual([
      {
        field: 'theme.colors.accent',
        message: expect.stringMatching(
          /^"#808080" has a contrast of 3\.9\d:1 with its button text \(near-black #1b2430\), below the 4\.5:1 it needs/,
        ),
      },
    ]);
  });

  it('writes its custom properties and, for a bundled font, its faces and a fallback sized to match', () => {
    const { theme } = themeOf({ colors: { primary: '#1d4d2b', accent: '#b5179e' }, font: 'inter' });
    const css = themeCss(theme, (w) => `inter-${w}.woff2`);
    for (const name of Object.keys(THEME_PROPERTIES)) expect(css).toContain(`${name}:`);
    expect(css).toContain('--color-primary:#1d4d2b;');
    expect(css).toContain('--font-body:"Inter", "Inter Fallback", system-ui');
    expect(css).toContain('font-display:optional;src:url(inter-400.woff2) format("woff2")');
    expect(css).toMatch(
      /font-family:"Inter Fallback";src:local\("Arial"\),local\("Liberation Sans"\);size-adjust:\d+\.\d\d%;ascent-override/,
    );
    // The system's font downloads nothing.
    const system = themeCss(themeOf({}).theme, () => 'x');
    expect(system).not.toContain('@font-face');
    expect(system).toContain('--font-body:system-ui');
  });
});

describe('the bundled fonts', () => {
  const webFonts = FONT_CHOICES.map((c) => FONTS[c] as WebFont | null).filter(
    (f): f is WebFont => f !== null,
  );

  it('are a small set, the system font among them', () => {
    expect(FONT_CHOICES).toContain('system');
    expect(FONT_CHOICES.length).toBeLessThanOrEqual(6);
  });

  it("have the metrics their fallback is sized by: the font files' own", () => {
    for (const font of webFonts) {
      const bytes = readFileSync(require.resolve(fontFile(font, 400, 'woff')));
      const parsed = opentype.parse(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      );
      const os2 = (parsed as unknown as { tables: { os2: unknown } }).tables.os2 as {
        sTypoAscender: number;
        sTypoDescender: number;
        sTypoLineGap: number;
      };
      expect(
        {
          unitsPerEm: parsed.unitsPerEm,
          ascent: os2.sTypoAscender,
          descent: os2.sTypoDescender,
          lineGap: os2.sTypoLineGap,
        },
        font.family,
      ).toEqual({
        unitsPerEm: font.metrics.unitsPerEm,
        ascent: font.metrics.ascent,
        descent: font.metrics.descent,
        lineGap: font.metrics.lineGap,
      });
    }
  });

  it('ship the latin subset, whose range is the one fontsource gives it, in every weight used', () => {
    for (const font of webFonts) {
      const css = readFileSync(require.resolve(`${font.package}/400.css`), 'utf8');
      const block = css
        .split('@font-face')
        .find((b) => b.includes(`${font.files}-latin-400-normal.woff2`));
      expect(/unicode-range: ([^;]+);/.exec(block ?? '')?.[1], font.family).toBe(LATIN_RANGE);
      for (const weight of FONT_WEIGHTS)
        expect(() => require.resolve(fontFile(font, weight, 'woff2'))).not.toThrow();
    }
  });
});
