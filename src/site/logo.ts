import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The owner's logo (site.json `logo`), a file of the public folder the pages link to. */
export interface SiteLogo {
  /** Its path on the site: `/brand/logo.svg` for `public/brand/logo.svg`. */
  path: string;
  /** Where it is read from. */
  file: string;
  type: 'image/svg+xml' | 'image/png';
  /** Its size as drawn at 1x, so the page keeps its room before it loads. */
  width: number;
  height: number;
  /** Of its bytes: a new picture under the same name changes the pages and share images. */
  digest: string;
}

/**
 * How `logo` may begin: the public folder, whatever it is called on the command line
 * (`public/brand/logo.svg`), or the site's root as the photos' paths do (`/brand/logo.svg`).
 */
export const LOGO_PREFIX = 'public/';

/** The logo's path inside the public folder, from either form `logo` may take. */
const logoInPublic = (value: string): string =>
  value.startsWith(LOGO_PREFIX) ? value.slice(LOGO_PREFIX.length) : value.replace(/^\/+/, '');

/**
 * The logo `value` names, read from the build's public folder, or why it cannot be used (a
 * message for site.json's `logo` field).
 */
export function readLogo(
  value: string,
  publicDir: string | null | undefined,
): { logo: SiteLogo } | { error: string } {
  const rel = logoInPublic(value);
  if (!publicDir)
    return {
      error: `"${value}" is in the public folder, and this build has none: create public/ beside data/ (or name it with --public) and put the logo there`,
    };
  const file = path.join(publicDir, rel);
  if (!statSync(file, { throwIfNoEntry: false })?.isFile())
    return { error: `"${value}": no such file in the public folder (${file})` };
  const bytes = readFileSync(file);
  const size = /\.png$/i.test(rel) ? pngSize(bytes) : svgSize(bytes.toString('utf8'));
  if ('error' in size) return { error: `"${value}" ${size.error}` };
  return {
    logo: {
      path: `/${rel.split(path.sep).join('/')}`,
      file,
      type: /\.png$/i.test(rel) ? 'image/png' : 'image/svg+xml',
      ...size,
      digest: createHash('sha256').update(bytes).digest('hex'),
    },
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size, from its header (IHDR, which the format puts first). */
function pngSize(bytes: Buffer): { width: number; height: number } | { error: string } {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE))
    return { error: 'is not a PNG file (its first bytes are not a PNG signature)' };
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * An SVG's size: its width and height in pixels, or its viewBox's. A logo with neither has no
 * shape a page can keep room for.
 */
function svgSize(text: string): { width: number; height: number } | { error: string } {
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!tag) return { error: 'is not an SVG file (it has no <svg> element)' };
  const attr = (name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1]?.trim();
  const px = (v: string | undefined) => {
    const m = v === undefined ? null : /^(\d+(?:\.\d+)?)(px)?$/.exec(v);
    return m ? Number(m[1]) : null;
  };
  const width = px(attr('width'));
  const height = px(attr('height'));
  if (width && height) return { width, height };
  const box = attr('viewBox')
    ?.split(/[\s,]+/)
    .map(Number)
    .filter((n) => Number.isFinite(n));
  if (box?.length === 4 && (box[2] ?? 0) > 0 && (box[3] ?? 0) > 0)
    return { width: box[2] as number, height: box[3] as number };
  return {
    error:
      'has neither a viewBox nor a width and height in pixels on its <svg> element: add viewBox="0 0 W H" so pages know its shape',
  };
}
