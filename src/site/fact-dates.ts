import * as z from 'zod';
import { isoDate } from './schema.js';

/**
 * When a fact was true, and when it was last read at its source: every local fact and every
 * province's assistance fact carries both, so a page can say "as of 2024" and a publishing
 * build can tell the owner which programmes, amounts and deadlines to read again.
 */

/** The date the source gives, or the year it describes: 2024, 2024-05 or 2024-05-31. */
const asOfSchema = isoDate;

/** The day the fact was last read at its source (YYYY-MM-DD). */
const checkedSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be the day it was read at its source (YYYY-MM-DD)')
  .pipe(isoDate);

/** The two dates of a fact, checked together: a fact cannot be read before the time it tells. */
export const datedFields = { asOf: asOfSchema, checked: checkedSchema };

/** Refuses a `checked` before the start of `asOf` (a page read before what it says happened). */
export function checkedAfterAsOf(
  fact: { asOf: string; checked: string },
  ctx: z.RefinementCtx,
): void {
  if (fact.checked < fact.asOf.slice(0, fact.checked.length))
    ctx.addIssue({
      code: 'custom',
      path: ['checked'],
      message: `is before asOf (${fact.asOf}): a source cannot be read before the time it tells`,
    });
}

/** What a fact tells that can stop being true: what a page dates, and a publishing build re-checks. */
type DatedKind = 'programme' | 'amount' | 'deadline' | 'address';

const AMOUNT = /\$\s?\d|\d\s?\$|\d\s?%|\bper cent\b|\bpour cent\b/i;
const DEADLINE =
  /\bdeadline\b|\bwithin (?:a|one|two|three|\d+) (?:day|week|month|year)s?\b|\bwithin \d+ days\b|\buntil (?:January|February|March|April|May|June|July|August|September|October|November|December) \d|\bby (?:January|February|March|April|May|June|July|August|September|October|November|December) \d/i;
const PROGRAMME =
  /\bprogra(?:m|mme)s?\b|\bsubsid|\brebate|\bgrant\b|\bgrants\b|\bincentive|\breimburs|\bassistance\b|\bpays?\b|\bfunded\b|\boffer(?:s|ed)? (?:owners|homeowners|residents)/i;
const ADDRESS =
  /\bP\.? ?O\.? Box\b|\b[A-Z]\d[A-Z] ?\d[A-Z]\d\b|\b\d{2,5} [A-Z][\w'.-]+(?: [A-Z][\w'.-]+)? (?:Street|Avenue|Road|Drive|Boulevard|Way|Crescent|Place)\b/;

/**
 * The kinds of dated statement a fact's text makes (its English: every French text says the
 * same). A programme is told where a fact about protection or assistance names one or what it
 * pays; past events (risk) are dated by their own words.
 */
export function datedKinds(fact: { topic?: string; text: string }): DatedKind[] {
  const kinds: DatedKind[] = [];
  const helps =
    fact.topic === undefined || fact.topic === 'protection' || fact.topic === 'assistance';
  if (helps && PROGRAMME.test(fact.text)) kinds.push('programme');
  if (AMOUNT.test(fact.text)) kinds.push('amount');
  if (DEADLINE.test(fact.text)) kinds.push('deadline');
  if (ADDRESS.test(fact.text)) kinds.push('address');
  return kinds;
}

/** Whether a page shows the fact's "as of" year: it tells something that can stop being true. */
export const showsAsOf = (fact: { topic?: string; text: string }) => datedKinds(fact).length > 0;

/** Whether a publishing build holds the fact to its age: a programme, an amount or a deadline. */
export const heldToAge = (fact: { topic?: string; text: string }) =>
  datedKinds(fact).some((k) => k !== 'address');

/** The year of an `asOf`. */
export const yearOf = (asOf: string) => asOf.slice(0, 4);

/** The ISO day `months` months before `day` (the last day of a shorter month where it must). */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** Whether a fact read on `checked` is older than `months` months on `on`. */
export const olderThan = (checked: string, months: number, on: string) =>
  checked < monthsBefore(on, months);

/** Today as an ISO day, in UTC. */
export const today = () => new Date().toISOString().slice(0, 10);
