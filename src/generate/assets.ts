import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allCities, type City, type Site } from '../site/model.js';
import { assetFile, fileForPath, links, pathForFile } from '../urls.js';
import { bundleClient, readPrebuiltClient } from './client-bundle.js';

export interface Asset {
  /** Path under the output folder, e.g. assets/app.3f2a1c9b.js */
  file: string;
  contents: Uint8Array;
}

export interface Assets {
  files: Asset[];
  /** URLs pages link to. */
  css: string;
  js: string;
  /** The not-found page's city index: [slug, population] pairs, `1` third for a city in French. */
  cityIndex: string;
}

export const hashed = (name: string, ext: string, contents: Uint8Array) =>
  assetFile(name, createHash('sha256').update(contents).digest('hex'), ext);

/** The browser script, stylesheet and icon: code, the same whatever the data. */
export interface ClientAssets {
  js: Uint8Array;
  css: Uint8Array;
  favicon: Uint8Array;
}

/**
 * The browser script and the stylesheet, bundled with the compiled CLI or here when running from
 * sources (they need no data, so this overlaps the data load), and the icon.
 */
export async function loadClient(
  root: string,
  options: { prebuilt: boolean },
): Promise<ClientAssets> {
  const favicon = readFileSync(path.join(root, 'src/styles/favicon.svg'));
  const client = (options.prebuilt && readPrebuiltClient(root)) || (await bundleClient(root));
  return { ...client, favicon };
}

/** The site's asset files, with content-hashed names: the client's and the city index. */
export function siteAssets<C extends { slug: string; population: number }>(
  client: ClientAssets,
  cities: readonly C[],
  /** Whether a city has French pages: marked in the index, for the French not-found page. */
  inFrench: (city: C) => boolean = () => false,
): Assets {
  const jsFile = hashed('app', 'js', client.js);
  const cssFile = hashed('site', 'css', client.css);
  // Small and loaded only by the not-found page, which applies the city lookup in the browser.
  const indexBytes = new TextEncoder().encode(
    JSON.stringify(
      cities.map((c) => (inFrench(c) ? [c.slug, c.population, 1] : [c.slug, c.population])),
    ),
  );
  const indexFile = hashed('cities', 'json', indexBytes);
  return {
    files: [
      { file: jsFile, contents: client.js },
      { file: cssFile, contents: client.css },
      { file: indexFile, contents: indexBytes },
      { file: fileForPath(links.favicon), contents: client.favicon },
    ],
    js: pathForFile(jsFile),
    css: pathForFile(cssFile),
    cityIndex: pathForFile(indexFile),
  };
}

/** The site's assets for a loaded site: every city in the index, those with French pages marked. */
export function assetsOfSite(client: ClientAssets, site: Site): Assets {
  const french = site.languages.get('fr');
  return siteAssets<City>(client, allCities(site), (c) =>
    french ? french.covers(c) && !c.national : false,
  );
}
