import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A source URL of the data set, and where each citation of it is. */
export interface CitedUrl {
  url: string;
  /** "file: path" of each citation, in the data's order. */
  cited: string[];
}

/** The data's JSON files, the catalogues aside (they cite nothing). */
function jsonFiles(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel))
    .sort()
    .flatMap((name) => {
      const at = path.join(rel, name);
      if (statSync(path.join(dir, at)).isDirectory())
        return name === 'i18n' ? [] : jsonFiles(dir, at);
      return name.endsWith('.json') ? [at] : [];
    });
}

/**
 * Every source of a data folder (any { publisher, url } in its JSON files), each URL once with
 * the places that cite it: what `claimsite sources check` asks after.
 */
export function collectSources(dataDir: string): CitedUrl[] {
  const byUrl = new Map<string, string[]>();
  const walk = (value: unknown, file: string, at: string) => {
    if (Array.isArray(value))
      for (const [i, v] of value.entries()) walk(v, file, at ? `${at}.${i}` : `${i}`);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (typeof o.url === 'string' && typeof o.publisher === 'string') {
        const list = byUrl.get(o.url) ?? [];
        list.push(`${file}: ${at}`);
        byUrl.set(o.url, list);
      }
      for (const [k, v] of Object.entries(o)) walk(v, file, at ? `${at}.${k}` : k);
    }
  };
  for (const file of jsonFiles(dataDir))
    walk(
      JSON.parse(readFileSync(path.join(dataDir, file), 'utf8')),
      file.split(path.sep).join('/'),
      '',
    );
  return [...byUrl].map(([url, cited]) => ({ url, cited }));
}
