/**
 * What a lead is worth, by its loss range: the opportunity's `monetaryValue` in the CRM and the
 * `value` of GA4's `generate_lead`, in Canadian dollars. The defaults are the adjuster's fee at
 * 10% (the middle of the 5-15% the site states) of the range's middle, and of $1,000,000 for the
 * open-ended top range: what a signed claim of that size would earn. An owner who knows their
 * signing rate sets their own table (`leadValues` in data/site.json for the site, LEAD_VALUES for
 * the endpoint). A range the table does not name (an answer such as "not sure yet") has no value:
 * none is made up. No zod here: the browser script reads these names.
 */
export type LeadValues = Readonly<Record<string, number>>;

export const DEFAULT_LEAD_VALUES: LeadValues = {
  '50k_100k': 7_500,
  '100k_250k': 17_500,
  '250k_500k': 37_500,
  '500k_1m': 75_000,
  over_1m: 100_000,
};

export const LEAD_CURRENCY = 'CAD';

/** The value of a loss range, or undefined when the table names none. */
export function leadValue(range: string | undefined, table: LeadValues): number | undefined {
  if (!range || !Object.hasOwn(table, range)) return undefined;
  const value = table[range];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * A table given by the owner, checked: each key a loss range of the form, each value a number
 * of dollars, 0 or more. Returns the problem in words, naming the entry, or the table.
 */
export function checkLeadValues(
  raw: unknown,
  ranges: readonly string[],
): { table: LeadValues } | { error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return {
      error: 'must be an object of loss range to value in dollars, such as {"100k_250k": 17500}',
    };
  for (const [key, value] of Object.entries(raw)) {
    if (!ranges.includes(key))
      return { error: `names "${key}", which is not one of ${ranges.join(', ')}` };
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      return {
        error: `gives "${key}" ${JSON.stringify(value)}: a value must be a number of dollars, 0 or more`,
      };
  }
  return { table: raw as LeadValues };
}
