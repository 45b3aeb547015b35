import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { findNumbers } from 'libphonenumber-js';
import type { SitePlaceholder } from '../i18n/placeholders.js';
import type { DataIssue } from './errors.js';
import type { Phone } from './phone.js';

/**
 * The brand and contact details the bundled data came with. Content that still types one of them
 * in would show a new owner's visitors someone else's business; content that types in the
 * owner's own would go stale at the next change of site.json.
 */
const BUNDLED_CONTACTS = {
  siteName: 'ClaimRight Canada',
  phone: '+18883399809',
  email: 'help@claimright.ca',
  privacyEmail: 'privacy@claimright.ca',
} as const;

/** The bundled brand in any form (a name, a domain, an address): the sample's, never an owner's. */
const BUNDLED_BRAND = /claimright/gi;

/** The files of content, where texts are written: a folder's files of these kinds. */
const CONTENT_FOLDERS: ReadonlyArray<[folder: string, ext: RegExp]> = [
  ['content', /\.json$/],
  ['pages', /\.md$/],
  ['posts', /\.md$/],
  ['i18n', /\.json$/],
  ['fr', /\.(json|md)$/],
];

interface Needle {
  placeholder: SitePlaceholder;
  what: string;
  /** Whether a file's text may hold it at all: most files do not, and are not read by line. */
  may: (text: string) => boolean;
  find: (line: string) => Array<{ at: number; length: number; text: string }>;
}

/** Ten digits in three groups, as any North American number is written (and then some). */
const TEN_DIGITS = /\d{3}\D{0,3}\d{3}\D{0,3}\d{4}/;

/**
 * Every line of a content file that types in the site's (or the bundled) name, phone number or
 * e-mail address rather than its placeholder, as a data error naming the file and line.
 */
export function typedContacts(
  dataDir: string,
  settings: { siteName: string; email: string; privacyEmail: string },
  phone: Phone | undefined,
  rel: (f: string) => string,
): DataIssue[] {
  const phones = new Set<string>([BUNDLED_CONTACTS.phone, ...(phone ? [phone.e164] : [])]);
  const needles: Needle[] = [
    literal('email', 'the e-mail address', [settings.email, BUNDLED_CONTACTS.email], 'i'),
    literal(
      'privacyEmail',
      'the privacy e-mail address',
      [settings.privacyEmail, BUNDLED_CONTACTS.privacyEmail],
      'i',
    ),
    literal('siteName', 'the site name', [settings.siteName, BUNDLED_CONTACTS.siteName], ''),
    {
      placeholder: 'phone',
      what: 'the phone number',
      may: (text) => TEN_DIGITS.test(text),
      find: (line) =>
        // Parsing is slow: only a line with ten digits in a number's groups is parsed.
        !TEN_DIGITS.test(line)
          ? []
          : findNumbers(line, { defaultCountry: 'CA', v2: true })
              .filter((n) => phones.has(n.number.number))
              .map((n) => ({
                at: n.startsAt,
                length: n.endsAt - n.startsAt,
                text: line.slice(n.startsAt, n.endsAt),
              })),
    },
    {
      placeholder: 'siteName',
      what: 'the bundled sample brand',
      may: (text) => /claimright/i.test(text),
      find: (line) =>
        [...line.matchAll(BUNDLED_BRAND)].map((m) => ({
          at: m.index ?? 0,
          length: m[0].length,
          text: wordAround(line, m.index ?? 0, m[0].length),
        })),
    },
  ];
  const issues: DataIssue[] = [];
  for (const file of contentFiles(dataDir)) {
    const text = readFileSync(file, 'utf8');
    const present = needles.filter((needle) => needle.may(text));
    if (present.length === 0) continue;
    text.split(/\r?\n/).forEach((original, i) => {
      let line = original;
      for (const needle of present)
        for (const found of needle.find(line)) {
          issues.push({
            file: rel(file),
            line: i + 1,
            record: null,
            field: null,
            message: `types in ${needle.what} "${found.text}": write {${needle.placeholder}} instead, which the build fills from site.json`,
          });
          // Reported once: a name found as an address is not found again as a brand.
          line =
            line.slice(0, found.at) +
            ' '.repeat(found.length) +
            line.slice(found.at + found.length);
        }
    });
  }
  return issues;
}

/** Occurrences of any of `values` standing as words of their own (not inside a longer word). */
function literal(
  placeholder: SitePlaceholder,
  what: string,
  values: readonly string[],
  flags: string,
): Needle {
  const unique = [...new Set(values.map((v) => v.trim()).filter(Boolean))].sort(
    (a, b) => b.length - a.length,
  );
  const source = unique.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}@.])(?:${source})(?![\\p{L}\\p{N}]|\\.\\p{L})`,
    `gu${flags}`,
  );
  const lower = unique.map((v) => v.toLowerCase());
  return {
    placeholder,
    what,
    may: (text) => {
      const t = flags.includes('i') ? text.toLowerCase() : text;
      return (flags.includes('i') ? lower : unique).some((v) => t.includes(v));
    },
    find: (line) =>
      [...line.matchAll(pattern)].map((m) => ({
        at: m.index ?? 0,
        length: m[0].length,
        text: m[0],
      })),
  };
}

/** The word (letters, digits, dots, @) a match stands in, to show it as it is written. */
function wordAround(line: string, at: number, length: number): string {
  let start = at;
  let end = at + length;
  while (start > 0 && /[\p{L}\p{N}.@-]/u.test(line[start - 1] ?? '')) start--;
  while (end < line.length && /[\p{L}\p{N}.@-]/u.test(line[end] ?? '')) end++;
  return line.slice(start, end).replace(/\.+$/, '');
}

/** The content files of a data folder, in a stable order. */
function contentFiles(dataDir: string): string[] {
  const out: string[] = [];
  for (const [folder, ext] of CONTENT_FOLDERS) {
    const dir = path.join(dataDir, folder);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && ext.test(entry.name)) out.push(path.join(entry.parentPath, entry.name));
  }
  return out.sort();
}
