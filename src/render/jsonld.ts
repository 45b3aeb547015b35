/**
 * Serialises JSON-LD for a <script> element. `<`, `>` and `&` become \u escapes, so no data
 * value can close the element or open a comment; U+2028/9 are escaped for old parsers.
 */
export function serializeJsonLd(data: unknown): string {
  // A list is its items' JSON joined, as JSON.stringify writes it: a shared item is written once.
  if (Array.isArray(data)) return `[${data.map(serializeItem).join(',')}]`;
  return serializeItem(data);
}

/**
 * Marks a JSON-LD object as shared by many pages (the business, a claim type's FAQ): it is
 * serialised once and reused. It must not change afterwards.
 */
export function sharedJsonLd<T extends object>(data: T): T {
  shared.set(data, toJson(data));
  return data;
}

const shared = new WeakMap<object, string>();

function serializeItem(data: unknown): string {
  return (typeof data === 'object' && data !== null && shared.get(data)) || toJson(data);
}

function toJson(data: unknown): string {
  return (JSON.stringify(data) ?? 'null').replace(UNSAFE, (ch) => ESCAPES[ch] ?? ch);
}

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
