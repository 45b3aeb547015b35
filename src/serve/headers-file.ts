/**
 * The `_headers` file that Netlify and Cloudflare Pages read: a path pattern on a line of its
 * own, then its headers indented below it (`Name: value`), `#` for comments. A pattern's `*`
 * matches anything (slashes too) and a `:name` placeholder one path segment. Every rule that
 * matches a request adds its headers; a header set twice is joined with a comma, and
 * `! Name` removes one (Cloudflare Pages' documented behaviour; Netlify documents no `!`, so
 * the build's own file never needs it, nor sets one header in two rules that can match).
 */
export interface HeaderRule {
  pattern: string;
  matcher: RegExp;
  set: Array<[name: string, value: string]>;
  unset: string[];
}

class HeadersFileError extends Error {}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      rules.push({ pattern: line, matcher: patternToRegExp(line), set: [], unset: [] });
      continue;
    }
    const rule = rules.at(-1);
    if (!rule) throw new HeadersFileError(`line ${i + 1}: a header before any path`);
    if (line.startsWith('!')) {
      rule.unset.push(line.slice(1).trim().toLowerCase());
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 1) throw new HeadersFileError(`line ${i + 1}: expected "Name: value"`);
    rule.set.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** The headers every matching rule gives a request path, names as the file writes them. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Map<string, string> {
  const out = new Map<string, [string, string]>();
  const unset = new Set<string>();
  for (const rule of rules) {
    if (!rule.matcher.test(pathname)) continue;
    for (const [name, value] of rule.set) {
      const key = name.toLowerCase();
      const had = out.get(key);
      out.set(key, [name, had ? `${had[1]}, ${value}` : value]);
    }
    for (const name of rule.unset) unset.add(name);
  }
  for (const name of unset) out.delete(name);
  return new Map([...out.values()]);
}

/** The rules that match a path: used to check that no two of them set the same header. */
export function rulesFor(rules: readonly HeaderRule[], pathname: string): HeaderRule[] {
  return rules.filter((r) => r.matcher.test(pathname));
}

function patternToRegExp(pattern: string): RegExp {
  // An absolute pattern (https://host/path) applies to that host; the path is what is matched.
  const path = pattern.replace(/^https?:\/\/[^/]+/, '') || '/';
  let source = '';
  for (const part of path.split(/(\*|:[A-Za-z]\w*)/)) {
    if (part === '*') source += '.*';
    else if (part.startsWith(':') && part.length > 1) source += '[^/]+';
    else source += part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
