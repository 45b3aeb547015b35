import type { Assistance, LocalFact, ProvincePermit } from './facts-schema.js';
import { ASSISTANCE_TELLS } from './facts-schema.js';
import type { Facts } from './load-facts.js';
import type { City } from './model.js';

/**
 * A homeowner's four questions on a city's page, each answered from sourced facts: who to call
 * tonight for a sewer backup or flooding, what the city (or its region, whose facts the data
 * tells on each of its cities) offers, what the province's disaster assistance covers and
 * excludes and by when to apply, and the permits repairs need.
 */
export interface CityAnswers {
  call: readonly LocalFact[];
  offers: readonly LocalFact[];
  province: readonly Assistance[];
  /** The city's own, or else its province's. */
  permits: readonly (LocalFact | ProvincePermit)[];
}

/** The city's facts that answer each question (about the whole city: not a neighbourhood's). */
export function cityAnswers(facts: Facts, city: City): CityAnswers {
  const own = (facts.local.get(city.slug) ?? []).filter((f) => f.area === undefined);
  const province = city.provinceCode ? facts.provinces.get(city.provinceCode) : undefined;
  const ownPermits = own.filter((f) => f.topic === 'permits');
  return {
    call: own.filter((f) => f.topic === 'report'),
    offers: own.filter((f) => f.topic === 'protection' || f.topic === 'assistance'),
    province: (province?.assistance ?? []).filter((f) => f.tells !== undefined),
    permits: ownPermits.length > 0 ? ownPermits : (province?.permits ?? []),
  };
}

/** A fact of the city itself, not of its region (which tells the same on each of its cities). */
const cityOwn = (f: LocalFact) => f.region === undefined;

/** What the province's assistance facts leave untold of what it covers, excludes and its deadline. */
export function untold(assistance: readonly Assistance[]): (typeof ASSISTANCE_TELLS)[number][] {
  return ASSISTANCE_TELLS.filter((t) => !assistance.some((f) => f.tells?.includes(t)));
}

/**
 * Whether the page answers all four: what indexes a city's page. A city without a line to call
 * and something it offers among its own facts (two actionable facts not its region's: a
 * region's, the same on each of its cities, would make their pages copies of one another), or
 * whose province's assistance or permits the data cannot tell, is consolidated into its
 * province's page (src/routes.ts).
 */
export function answersAll(a: CityAnswers): boolean {
  return (
    a.call.some(cityOwn) &&
    a.offers.some(cityOwn) &&
    a.permits.length > 0 &&
    a.province.length > 0 &&
    untold(a.province).length === 0
  );
}

/** The city's facts the four answers do not tell (its risk, its housing), for the rest of its page. */
export function otherFacts(facts: Facts, city: City): readonly LocalFact[] {
  return (facts.local.get(city.slug) ?? []).filter(
    (f) => f.area === undefined && (f.topic === 'risk' || f.topic === 'housing'),
  );
}
