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
