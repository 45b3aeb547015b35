import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Pictures } from '../photos/plan.js';
import { allCities, type City, type Site } from '../site/model.js';
import { shieldSvg } from '../site/shield.js';
import { FONT_WEIGHTS, fontFile, type Theme, themeCss, webFontOf } from '../site/theme.js';
import { assetFile, fileForPath, links, pathForFile } from '../urls.js';
import { bundleClient, readPrebuiltClient } from './client-bundle.js';

interface Asset {
  /** Path under the output folder, e.g. assets/app.3f2a1c9b.js */
  file: string;
  contents: Uint8Array;
}

/** The assets' paths pages link to (under the site's folder, where it has one). */
export interface PageAssets {
  css: string;
  js: string;
  /** The not-found page's city index: [slug, population] pairs, `1` third for a city in French. */
  cityIndex: string;
  /** The theme font's faces (regular, bold), preloaded; none for the system's font. */
  fonts: string[];
  /** The owner's photos, resized (src/photos); absent or empty for none. */
  photos?: Pictures;
}

export interface Assets extends PageAssets {
  files: Asset[];
}

const hashed = (name: string, ext: string, contents: Uint8Array) =>
  assetFile(name, createHash('sha256').update(contents).digest('hex'), ext);

/** The browser script and stylesheet: code, the same whatever the data. */
interface ClientAssets {
  js: Uint8Array;
  css: Uint8Array;
}

/**
 * The browser script and the stylesheet, bundled with the compiled CLI or here when running from
 * sources (they need no data, so this overlaps the data load).
 */
export async function loadClient(
  root: string,
  options: { prebuilt: boolean },
): Promise<ClientAssets> {
  return (options.prebuilt && readPrebuiltClient(root)) || (await bundleClient(root));
}

/** What a site's theme adds to the client's assets: its font files, its part of the stylesheet. */
interface ThemeAssets {
  fonts: Asset[];
  /** Put before the stylesheet: the theme's custom properties and font faces. */
  css: string;
  favicon: Uint8Array;
}

/** The files and stylesheet of a theme; the favicon's title is the site's name. */
function themeAssets(theme: Theme, siteName: string): ThemeAssets {
  const font = webFontOf(theme);
  const require = createRequire(import.meta.url);
  const fonts = font
    ? FONT_WEIGHTS.map((weight) => {
        const bytes = readFileSync(require.resolve(fontFile(font, weight, 'woff2')));
        return { file: hashed(`${font.files}-${weight}`, 'woff2', bytes), contents: bytes };
      })
    : [];
  // The faces' files beside the stylesheet: named relative to it, right under any base path.
  const css = themeCss(theme, (weight) =>
    path.posix.basename(fonts[FONT_WEIGHTS.indexOf(weight as 400 | 700)]?.file ?? ''),
  );
  return {
    fonts,
    css,
    favicon: new TextEncoder().encode(shieldSvg(theme.primary, theme.accent, siteName)),
  };
}

/** The site's asset files, with content-hashed names: the client's, the theme's, the city index. */
function siteAssets<
  C extends { slug: string; population: number; areas?: readonly { slug: string }[] },
>(
  client: ClientAssets,
  theme: ThemeAssets,
  cities: readonly C[],
  /** Whether a city has French pages: marked in the index, for the French not-found page. */
  inFrench: (city: C) => boolean = () => false,
): Assets {
  const jsFile = hashed('app', 'js', client.js);
  const css = Buffer.concat([Buffer.from(theme.css), client.css]);
  const cssFile = hashed('site', 'css', css);
  // Loaded by the not-found page and by a finder once its field has focus, which apply the
  // lookup in the browser: each city's slug, population, French pages (1) and its areas' slugs
  // (neighbourhoods; the national entry's are the provinces), so a neighbourhood is found too.
  const indexBytes = new TextEncoder().encode(
    JSON.stringify(
      cities.map((c) => {
        const areas = c.areas?.map((a) => a.slug) ?? [];
        const fr = inFrench(c) ? 1 : 0;
        return areas.length > 0 ? [c.slug, c.population, fr, areas] : [c.slug, c.population, fr];
      }),
    ),
  );
  const indexFile = hashed('cities', 'json', indexBytes);
  return {
    files: [
      { file: jsFile, contents: client.js },
      { file: cssFile, contents: css },
      { file: indexFile, contents: indexBytes },
      ...theme.fonts,
      { file: fileForPath(links.favicon), contents: theme.favicon },
    ],
    js: pathForFile(jsFile),
    css: pathForFile(cssFile),
    cityIndex: pathForFile(indexFile),
    fonts: theme.fonts.map((f) => pathForFile(f.file)),
  };
}

/** The site's assets for a loaded site: every city in the index, those with French pages marked. */
export function assetsOfSite(client: ClientAssets, site: Site): Assets {
  const french = site.languages.get('fr');
  const theme = themeAssets(site.theme, site.settings.siteName);
  return siteAssets<City>(client, theme, allCities(site), (c) =>
    french ? french.covers(c) && !c.national : false,
  );
}
