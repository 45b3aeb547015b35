import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The browser script and the stylesheet: code, not data, so they are the same for every site. */
interface ClientBundle {
  js: Uint8Array;
  css: Uint8Array;
}

/** Where scripts/build-cli.mjs leaves the bundle, beside the compiled CLI. */
const PREBUILT_DIR = 'lib/client';
const PREBUILT = { js: 'app.js', css: 'site.css' } as const;

/** Bundles src/client/main.ts and src/styles/site.css with esbuild. */
export async function bundleClient(root: string): Promise<ClientBundle> {
  // Loaded here: esbuild's loader and service are not needed when the bundle is prebuilt.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const [js, css] = await Promise.all([
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
  ]);
  const jsBytes = js.outputFiles[0]?.contents;
  const cssBytes = css.outputFiles[0]?.contents;
  if (!jsBytes || !cssBytes) throw new Error('esbuild produced no output for the client assets');
  return { js: jsBytes, css: cssBytes };
}

/**
 * Writes the bundle where the compiled CLI finds it (run by scripts/build-cli.mjs, into the lib
 * folder it is compiling before that becomes lib/).
 */
export async function writePrebuiltClient(
  root: string,
  libDir = path.join(root, path.dirname(PREBUILT_DIR)),
): Promise<void> {
  const bundle = await bundleClient(root);
  const dir = path.join(libDir, path.basename(PREBUILT_DIR));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, PREBUILT.js), bundle.js);
  await writeFile(path.join(dir, PREBUILT.css), bundle.css);
}

/**
 * The bundle made with the compiled CLI, or null when there is none (running from sources).
 * Read synchronously: two small files, and asynchronous reads waited on the data's load.
 */
export function readPrebuiltClient(root: string): ClientBundle | null {
  try {
    const dir = path.join(root, PREBUILT_DIR);
    return {
      js: readFileSync(path.join(dir, PREBUILT.js)),
      css: readFileSync(path.join(dir, PREBUILT.css)),
    };
  } catch {
    return null;
  }
}
