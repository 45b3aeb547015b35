/**
 * Whole numbers as en-CA writes them, 1,234,567, dollar amounts, $45,000, and dates, November
 * 22, 2026. Intl would do it, but each of its formatters is slow to start in every process
 * (README, Performance); these are the only formats the site shows (the tests hold them to
 * Intl's output).
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
