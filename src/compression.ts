import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * The files `generate --precompress` writes compressed beside themselves, and `claimsite serve`
 * answers compressed when the browser accepts it: text the browser reads whole (HTML, CSS,
 * scripts, XML, SVG). Images and fonts are compressed already.
 */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.xml', '.svg']);

/** Whether a file (a path or a name) is one of COMPRESSIBLE's kinds. */
export function isCompressible(file: string): boolean {
  const dot = file.lastIndexOf('.');
  return dot > file.lastIndexOf('/') && COMPRESSIBLE.has(file.slice(dot).toLowerCase());
}

/**
 * The encodings written beside a file, in the server's order of preference for equal weights:
 * brotli is about 7% smaller than gzip on a city page, and every current browser accepts both.
 */
export const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

type Encoding = (typeof ENCODINGS)[number];

/**
 * Brotli at quality 5 and gzip at level 9: measured on the bundled site's pages (docs/serve.md),
 * brotli 5 makes a city page 24% of its size in under half a millisecond, where 11 makes it 21%
 * for some forty times the time, which a site of thousands of pages pays on every full build.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 9;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** `bytes` compressed for an encoding; asynchronous, so that files compress on libuv's threads. */
export function compress(encoding: Encoding, bytes: Uint8Array): Promise<Buffer> {
  if (encoding.name === 'gzip') return gzip(bytes, { level: GZIP_LEVEL });
  return brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/**
 * What makes the compressed bytes: the settings and the libraries' versions. A build keeps the
 * last build's compressed files only under the same one, so that its output is byte for byte a
 * full build's.
 */
export const COMPRESSOR = `br ${BROTLI_QUALITY} ${process.versions.brotli ?? ''}, gzip ${GZIP_LEVEL} ${process.versions.zlib ?? ''}`;
