import { scanTree } from '../helpers.js';

export interface BuiltFile {
  /** Path under the output folder, with forward slashes. */
  rel: string;
  text: string;
}

/** Every file of a built site as text, read once. */
export async function readSite(dir: string): Promise<BuiltFile[]> {
  return [...(await scanTree(dir))].map(([rel, f]) => ({
    rel,
    text: Buffer.from(f.bytes, 'base64').toString('utf8'),
  }));
}

/** Attribute values in our own generated HTML (React serialises attributes with double quotes). */
export function attrs(html: string, name: 'href' | 'src'): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&'),
  );
}
