import { parsePhoneNumberFromString } from 'libphonenumber-js';
import * as z from 'zod';

/**
 * The site's phone number, parsed once from site.json: every call link, every number shown and
 * the JSON-LD come from this one value, never from the text again (a number read by keeping its
 * digits dialled Switzerland for 416-555-0123).
 */
export interface Phone {
  /** As the owner wrote it, trimmed: English pages show it so. */
  text: string;
  /** E.164: +14165550123. */
  e164: string;
  /** The extension, digits only, or null. */
  extension: string | null;
  /** The ten digits of the North American number: 4165550123. */
  national: string;
  /** Written with the leading 1 (1-888-339-9809): French pages keep it. */
  withOne: boolean;
}

/**
 * A North American number as written in site.json (416-555-0123, (416) 555-0123, 1-888-339-9809,
 * +1 416 555 0123, 416-555-0123 ext. 22), or why it is not one.
 */
export function parsePhone(text: string): { phone: Phone } | { error: string } {
  const trimmed = text.trim();
  const parsed = parsePhoneNumberFromString(trimmed, 'CA');
  if (parsed?.countryCallingCode !== '1')
    return {
      error: parsed
        ? `"${trimmed}" is not a North American number (+1): the site calls Canada and the United States only`
        : `"${trimmed}" is not a phone number: write it as 416-555-0123, 1-888-555-0123 or 416-555-0123 ext. 22`,
    };
  if (!parsed.isValid())
    return {
      error: `"${trimmed}" is not a valid North American number: it needs a real area code and 7 digits after it, such as 416-555-0123`,
    };
  return {
    phone: {
      text: trimmed,
      e164: parsed.number,
      extension: parsed.ext ?? null,
      national: parsed.nationalNumber,
      withOne: /^\+?\s*1\D/.test(trimmed),
    },
  };
}

const NBSP = '\u00a0';

/**
 * As Québec writes a number, as the French pages always have: spaces between the groups, a
 * hyphen in the last seven digits, the extension as "poste": 1 888 339-9809, 416 555-0123
 * poste 22. No-break spaces, so a number never breaks across lines.
 */
export function formatPhoneFr(phone: Phone): string {
  const d = phone.national;
  const number = `${d.slice(0, 3)}${NBSP}${d.slice(3, 6)}-${d.slice(6)}`;
  return `${phone.withOne ? `1${NBSP}` : ''}${number}${phone.extension ? `${NBSP}poste${NBSP}${phone.extension}` : ''}`;
}

/**
 * A number the data's schema has already checked (see `northAmericanPhone`), parsed. Once per
 * text: templates ask for the same few numbers of the site on every page, and parsing one took
 * 4% of a build.
 */
export function checkedPhone(text: string): Phone {
  let phone = checked.get(text);
  if (!phone) {
    const parsed = parsePhone(text);
    if ('error' in parsed) throw new Error(parsed.error);
    phone = parsed.phone;
    // The numbers of a site or two: a process that builds many in turn starts over.
    if (checked.size >= 10_000) checked.clear();
    checked.set(text, phone);
  }
  return phone;
}

const checked = new Map<string, Phone>();

/** A data file's phone number: refused, with parsePhone's reason, unless it parses. */
export const northAmericanPhone = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const parsed = parsePhone(value);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
  });

/** North America's toll-free area codes (800, 833, 844, 855, 866, 877, 888). */
export const isTollFree = (phone: Phone): boolean =>
  /^8(00|33|44|55|66|77|88)/.test(phone.national);
