/**
 * Whole numbers as en-CA writes them, 1,234,567, and dollar amounts, $45,000. Intl would do it,
 * but its number formatter costs 10-20 ms to start in every process, a tenth of an incremental
 * build; these are the only two formats the site shows (the tests hold them to Intl's output).
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
