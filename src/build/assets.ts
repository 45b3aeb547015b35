import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
  /** The not-found page's city index: [slug, population] pairs. */
  cityIndex: string;
}

export const hashed = (name: string, ext: string, contents: Uint8Array) =>
  `assets/${name}.${createHash('sha256').update(contents).digest('hex').slice(0, 10)}.${ext}`;

/**
 * The browser script and the stylesheet (bundled with the compiled CLI, or here when running
 * from sources; they need no data, so this overlaps the data load), then the city index, all
 * with content-hashed names.
 */
export async function buildAssets(
  root: string,
  cities: Promise<ReadonlyArray<{ slug: string; population: number }>>,
  options: { prebuilt: boolean },
): Promise<Assets> {
  const [client, favicon] = await Promise.all([
    (options.prebuilt ? readPrebuiltClient(root) : Promise.resolve(null)).then(
      (found) => found ?? bundleClient(root),
    ),
    readFile(path.join(root, 'src/styles/favicon.svg')),
  ]);
  const jsFile = hashed('app', 'js', client.js);
  const cssFile = hashed('site', 'css', client.css);
  // Small and loaded only by the not-found page, which applies the city lookup in the browser.
  const indexBytes = new TextEncoder().encode(
    JSON.stringify((await cities).map((c) => [c.slug, c.population])),
  );
  const indexFile = hashed('cities', 'json', indexBytes);
  return {
    files: [
      { file: jsFile, contents: client.js },
      { file: cssFile, contents: client.css },
      { file: indexFile, contents: indexBytes },
      { file: 'favicon.svg', contents: favicon },
    ],
    js: `/${jsFile}`,
    css: `/${cssFile}`,
    cityIndex: `/${indexFile}`,
  };
}
