import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

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
 * The browser script and the stylesheet (which need no data, so they bundle while the data
 * loads), then the city index, all with content-hashed names.
 */
export async function buildAssets(
  root: string,
  cities: Promise<ReadonlyArray<{ slug: string; population: number }>>,
): Promise<Assets> {
  const [js, css, favicon] = await Promise.all([
    esbuild.build({
      entryPoints: [path.join(root, 'src/client/main.ts')],
      bundle: true,
      minify: true,
      format: 'iife',
      target: ['es2020'],
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
    }),
    esbuild.build({
      entryPoints: [path.join(root, 'src/styles/site.css')],
      bundle: true,
      minify: true,
      write: false,
      logLevel: 'silent',
    }),
    readFile(path.join(root, 'src/styles/favicon.svg')),
  ]);
  const jsBytes = js.outputFiles[0]?.contents;
  const cssBytes = css.outputFiles[0]?.contents;
  if (!jsBytes || !cssBytes) throw new Error('esbuild produced no output for the client assets');
  const jsFile = hashed('app', 'js', jsBytes);
  const cssFile = hashed('site', 'css', cssBytes);
  // Small and loaded only by the not-found page, which applies the city lookup in the browser.
  const indexBytes = new TextEncoder().encode(
    JSON.stringify((await cities).map((c) => [c.slug, c.population])),
  );
  const indexFile = hashed('cities', 'json', indexBytes);
  return {
    files: [
      { file: jsFile, contents: jsBytes },
      { file: cssFile, contents: cssBytes },
      { file: indexFile, contents: indexBytes },
      { file: 'favicon.svg', contents: favicon },
    ],
    js: `/${jsFile}`,
    css: `/${cssFile}`,
    cityIndex: `/${indexFile}`,
  };
}
