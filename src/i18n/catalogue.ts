import type enCatalogue from '../../data/i18n/en.json';
import type { DataIssue } from '../site/errors.js';
import { formsOf, PROVINCE_LIST } from './french-provinces.js';
import { isSitePlaceholder } from './placeholders.js';

/**
 * A language's catalogue (data/i18n/<lang>.json): every user-facing string of the templates and
 * the route table, by component, and the language's route segments. Its shape is the bundled
 * English catalogue's; each language must give every key of it.
 */
export type Catalogue = typeof enCatalogue;
export type Strings = Catalogue['strings'];

/** `{name}` placeholders. */
const PLACEHOLDER = /\{(\w+)\}/g;

/** `text` with each `{name}` replaced by its value. */
export function fill(text: string, values: Readonly<Record<string, string | number>>): string {
  return contract(
    text.replace(PLACEHOLDER, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    ),
  );
}

/**
 * French contracts a preposition with what follows: a sentence written "à {place}" reads
 * "au Canada" for the country, "au Québec et au Nouveau-Brunswick" for a service area of two
 * provinces (named with their articles: src/i18n/french-provinces.ts) and "dans votre région" for
 * the visitor's area, and "de {city}" reads "d'Outremont" before a vowel. Only these French
 * sequences are touched, which English text never holds.
 */
const CONTRACTIONS: ReadonlyArray<[RegExp, string]> = [
  [/(^|[\s\u00a0])à Canada\b/g, '$1au Canada'],
  [/(^|[\s\u00a0])de Canada\b/g, '$1du Canada'],
  [/(^|[\s\u00a0])à votre région\b/g, '$1dans votre région'],
  // A name that starts with an article: à Le Plateau-Mont-Royal, au Plateau-Mont-Royal.
  [/(^|[\s\u00a0])à [Ll]e /g, '$1au '],
  [/(^|[\s\u00a0])de [Ll]e /g, '$1du '],
  [/(^|[\s\u00a0])à [Ll]es /g, '$1aux '],
  [/(^|[\s\u00a0])de [Ll]es /g, '$1des '],
  [/(^|[\s(«\u00a0])de ([AEIOUYÀÂÉÈÊÎÏÔÛ])/g, "$1d'$2"],
];

/** Whether a text has a French preposition as a word: English text never has, so is let be. */
const PREPOSITION = /(?:^|[\s(«\u00a0])(?:à|de) /;

function contract(text: string): string {
  if (!PREPOSITION.test(text)) return text;
  let out = text.replace(PROVINCE_LIST, (_, before: string, preposition: string, list: string) => {
    const items = list.split(/(, | et )/);
    const placed = items.map((item, i) => {
      if (i % 2 === 1) return item; // a separator
      const forms = formsOf(item);
      return forms ? (preposition === 'à' ? forms.in : forms.of) : item;
    });
    return `${before}${placed.join('')}`;
  });
  for (const [pattern, replacement] of CONTRACTIONS) out = out.replace(pattern, replacement);
  return out;
}

/** The same, split around placeholders whose values are elements: `[text, node, text]`. */
export function fillParts<T>(
  text: string,
  values: Readonly<Record<string, T | string | number>>,
): (T | string)[] {
  const out: (T | string)[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? '';
    if (!(name in values)) continue;
    out.push(text.slice(last, m.index));
    const value = values[name];
    out.push(typeof value === 'number' ? String(value) : (value as T | string));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((p) => p !== '');
}

/** A text's placeholders that the templates fill: the site's own ({phone}...) may stand anywhere. */
const placeholders = (text: string) =>
  [...text.matchAll(PLACEHOLDER)]
    .map((m) => m[1] ?? '')
    .filter((name) => !isSitePlaceholder(name))
    .sort();

/**
 * Checks a catalogue against the reference (the bundled English one): every key present and a
 * string, nothing unknown, and each string with the reference's placeholders (but the site's,
 * which any text may use or leave out). Problems name the file and the key.
 */
export function checkCatalogue(raw: unknown, reference: unknown, file: string): DataIssue[] {
  const issues: DataIssue[] = [];
  const walk = (value: unknown, ref: unknown, at: string) => {
    if (typeof ref === 'string') {
      if (typeof value !== 'string' || !value.trim()) {
        issues.push({
          file,
          record: at,
          field: null,
          message: value === undefined ? 'is missing' : 'must be a text',
        });
        return;
      }
      const want = placeholders(ref);
      const got = placeholders(value);
      if (want.join() !== got.join())
        issues.push({
          file,
          record: at,
          field: null,
          message: `must use the placeholders ${want.map((p) => `{${p}}`).join(', ') || '(none)'}, as the English does`,
        });
      return;
    }
    if (!isObject(ref)) return;
    if (!isObject(value)) {
      issues.push({
        file,
        record: at || null,
        field: null,
        message: value === undefined ? 'is missing' : 'must be an object',
      });
      return;
    }
    for (const key of Object.keys(ref)) walk(value[key], ref[key], at ? `${at}.${key}` : key);
    for (const key of Object.keys(value))
      if (!(key in ref))
        issues.push({
          file,
          record: at ? `${at}.${key}` : key,
          field: null,
          message: 'is not a key of the English catalogue',
        });
  };
  walk(raw, reference, '');
  return issues;
}

/** A JSON object, not a list (site/read.ts has the same test; the catalogue does not load data). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
