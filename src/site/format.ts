import { formatPhoneFr, type Phone } from './phone.js';

/**
 * Whole numbers as en-CA writes them, 1,234,567, dollar amounts, $45,000, and dates, November
 * 22, 2026. Intl would do it, but each of its formatters is slow to start in every process
 * (docs/how-a-build-works.md); these are the only formats the site shows (the tests hold them
 * to Intl's output).
 */
export function formatWhole(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 && grouped !== '0' ? `-${grouped}` : grouped;
}

export function formatDollars(n: number): string {
  const whole = formatWhole(n);
  return whole.startsWith('-') ? `-$${whole.slice(1)}` : `$${whole}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A calendar date, YYYY-MM-DD, written out: 2026-11-22 is November 22, 2026. */
export function formatLongDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month) throw new Error(`not a date: ${iso}`);
  return `${month} ${Number(m[3])}, ${Number(m[1])}`;
}

/**
 * A date as people write it, "14 March 2024" or "March 14, 2024", as YYYY-MM-DD; null for
 * anything else (or a day the month does not have).
 */
export function isoFromWritten(text: string): string | null {
  return isoFromWrittenEn(text) ?? isoFromWrittenFr(text);
}

function isoFromWrittenEn(text: string): string | null {
  const m =
    /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text.trim()) ??
    /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [day, name, year] = /^\d/.test(m[1] ?? '') ? [m[1], m[2], m[3]] : [m[2], m[1], m[3]];
  const month = MONTHS.indexOf(name ?? '') + 1;
  if (month === 0) return null;
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

/** The same formats as fr-CA writes them (Intl's fr-CA output, no-break spaces included). */
const NBSP = '\u00a0';

export function formatWholeFr(n: number): string {
  return formatWhole(n).replaceAll(',', NBSP);
}

export function formatDollarsFr(n: number): string {
  return `${formatWholeFr(n)}${NBSP}$`;
}

const MOIS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

/** 2024-03-14 is 14 mars 2024. */
export function formatLongDateFr(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? MOIS[Number(m[2]) - 1] : undefined;
  if (!m || !month) throw new Error(`not a date: ${iso}`);
  return `${Number(m[3])} ${month} ${Number(m[1])}`;
}

/** A French written date, "14 mars 2024", as YYYY-MM-DD; null for anything else. */
function isoFromWrittenFr(text: string): string | null {
  const m = /^(\d{1,2}|1er) ([a-zéû]+) (\d{4})$/.exec(text.trim());
  const month = m ? MOIS.indexOf(m[2] ?? '') + 1 : 0;
  if (!m || month === 0) return null;
  const day = m[1] === '1er' ? '1' : (m[1] ?? '');
  const iso = `${m[3]}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

/** A language's formats of what pages show. */
export interface Formats {
  whole(n: number): string;
  dollars(n: number): string;
  longDate(iso: string): string;
  /** The site's number as the language writes it. */
  phone(phone: Phone): string;
}

export const FORMATS: Record<'en' | 'fr', Formats> = {
  en: {
    whole: formatWhole,
    dollars: formatDollars,
    longDate: formatLongDate,
    phone: (p) => p.text,
  },
  fr: {
    whole: formatWholeFr,
    dollars: formatDollarsFr,
    longDate: formatLongDateFr,
    phone: formatPhoneFr,
  },
};
