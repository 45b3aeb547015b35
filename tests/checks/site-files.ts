import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface BuiltFile {
  /** Path under the output folder, with forward slashes. */
  rel: string;
  text: string;
}

/** Every file of a built site, read once. */
export async function readSite(dir: string): Promise<BuiltFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const full = path.join(e.parentPath, e.name);
        return {
          rel: path.relative(dir, full).split(path.sep).join('/'),
          text: await readFile(full, 'utf8'),
        };
      }),
  );
}

/** Attribute values in our own generated HTML (React serialises attributes with double quotes). */
export function attrs(html: string, name: 'href' | 'src'): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&'),
  );
}
