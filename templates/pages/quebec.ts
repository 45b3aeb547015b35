import { memoize } from '../../src/memo.js';
import type { Step } from '../../src/site/content-schema.js';
import type { City } from '../../src/site/model.js';

/**
 * Québec's claims adjusting works differently (see the QC entry of data/provinces.json and its
 * sources, the AMF and the ChAD): the adjuster a policyholder hires is a claims adjuster
 * certified by the AMF, and the fee is set in a written contract, a percentage of the indemnity
 * or an hourly rate at the client's choice. Québec's pages say so instead of the rest of
 * Canada's "licensed public adjuster" and "5-15% only on success".
 */
export const isQuebec = (city: City | undefined) => city?.provinceCode === 'QC';

export const QUEBEC = {
  lead: (place: string) =>
    `Property damage in ${place}? Tell us about your claim in three short steps. In Québec, the adjuster who works for you rather than for your insurer is a claims adjuster certified by the Autorité des marchés financiers: one will review your claim for free.`,
  feePromise: 'Fee set in a written contract: a percentage of the indemnity or an hourly rate',
  feeSentence:
    'The fee is set in a written contract: a percentage of the indemnity or an hourly rate, as you choose.',
  cta: (place: string) =>
    `Talk to a certified claims adjuster who works for policyholders in ${place}. Québec's rules put the fee in a written contract: a percentage of the indemnity or an hourly rate, as you choose.`,
  feeAnswer:
    'In Québec, a claims adjuster you hire yourself must sign a written contract with you that sets the fee: you choose between a percentage of the insurance indemnity and an hourly rate plus disbursements. The first assessment we arrange is free.',
};

/** The process steps with the rest of Canada's fee terms replaced by Québec's, once each. */
export const quebecSteps = memoize((steps: readonly Step[]): Step[] =>
  steps.map((step) => {
    const details = step.details.map((d) =>
      /5-15%|only on success/.test(d) ? QUEBEC.feePromise : d,
    );
    const description = step.description
      .split(/(?<=\.) /)
      .map((sentence) => (/5-15%|only on success/.test(sentence) ? QUEBEC.feeSentence : sentence))
      .join(' ');
    return { ...step, description, details: [...new Set(details)] };
  }),
);

/** What a page says of fees and process where it is; the components' own text elsewhere. */
export interface Terms {
  /** The hero's lead, or undefined for the page's own. */
  lead(place: string): string | undefined;
  /** The hero's first promise, or undefined for the standard one. */
  fee: string | undefined;
  /** The call to action's text, or undefined for the standard one. */
  cta(place: string): string | undefined;
  steps(steps: readonly Step[]): readonly Step[];
}

const STANDARD: Terms = {
  lead: () => undefined,
  fee: undefined,
  cta: () => undefined,
  steps: (steps) => steps,
};

const IN_QUEBEC: Terms = {
  lead: QUEBEC.lead,
  fee: QUEBEC.feePromise,
  cta: QUEBEC.cta,
  steps: quebecSteps,
};

/** The terms of a page in Québec (`quebec`) or elsewhere: one switch, not one per sentence. */
export const termsIn = (quebec: boolean): Terms => (quebec ? IN_QUEBEC : STANDARD);
