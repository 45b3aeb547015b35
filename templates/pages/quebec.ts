import { fill } from '../../src/i18n/catalogue.js';
import { memoize } from '../../src/memo.js';
import type { QuebecContent, Step } from '../../src/site/content-schema.js';
import type { City } from '../../src/site/model.js';

/**
 * Québec's claims adjusting works differently (see the QC entry of data/provinces.json and its
 * sources, the AMF and the ChAD): the adjuster a policyholder hires is a claims adjuster
 * certified by the AMF, and the fee is set in a written contract. Québec's pages say what
 * data/content says for Québec (quebec.json, and the `quebec` variants of the process steps and
 * the city questions) instead of the rest of Canada's "licensed public adjuster" and "5-15%
 * only on success"; the data loader checks that no step or answer quoting those lacks one.
 */
export const isQuebec = (city: City | undefined) => city?.provinceCode === 'QC';

/** The process steps as Québec's pages show them: each step's Québec variant where it has one. */
const quebecSteps = memoize((steps: readonly Step[]): Step[] =>
  steps.map((step) =>
    step.quebec
      ? {
          ...step,
          description: step.quebec.description ?? step.description,
          details: step.quebec.details ?? step.details,
        }
      : step,
  ),
);

/** What a page says of fees and process where it is; the components' own text elsewhere. */
interface Terms {
  /** The hero's lead, or undefined for the page's own. */
  lead(place: string): string | undefined;
  /** The hero's first promise, or undefined for the standard one. */
  fee: string | undefined;
  /** The call to action's text, or undefined for the standard one. */
  cta(place: string): string | undefined;
  steps(steps: readonly Step[]): readonly Step[];
  /** The Services page's lead, or undefined for the standard one. */
  servicesLead: string | undefined;
  /** The line under the claim form's buttons, or undefined for the standard one. */
  formNote: string | undefined;
}

const STANDARD: Terms = {
  lead: () => undefined,
  fee: undefined,
  cta: () => undefined,
  steps: (steps) => steps,
  servicesLead: undefined,
  formNote: undefined,
};

const inQuebec = memoize(
  (quebec: QuebecContent): Terms => ({
    lead: (place) => fill(quebec.lead, { city: place }),
    fee: quebec.feePromise,
    cta: (place) => fill(quebec.cta, { city: place }),
    steps: quebecSteps,
    servicesLead: quebec.servicesLead,
    formNote: quebec.formNote,
  }),
);

/** The terms of a page in Québec (`quebec`) or elsewhere: one switch, not one per sentence. */
export const termsIn = (quebec: boolean, content: { quebec: QuebecContent }): Terms =>
  quebec ? inQuebec(content.quebec) : STANDARD;
