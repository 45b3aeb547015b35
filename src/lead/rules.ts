/**
 * The questionnaire's rules in one place: the browser script enforces them on
 * each step and the lead endpoint validates submissions against the same values.
 */
export const CLAIM_TYPES = ['residential', 'commercial'] as const;
export const DAMAGE_TYPES = ['fire', 'water', 'wind', 'storm', 'theft', 'other'] as const;
export const ESTIMATED_VALUES = [
  '50k_100k',
  '100k_250k',
  '250k_500k',
  '500k_1m',
  'over_1m',
] as const;
/**
 * The answer of a visitor who cannot yet say what the loss is worth (the night of the damage):
 * accepted beside the spec's five ranges and sent to the CRM as such. It is no range, so the
 * value table (lead-values.ts) names none for it and such a lead carries no value.
 */
const NOT_SURE = 'not_sure';
export const VALUE_ANSWERS = [...ESTIMATED_VALUES, NOT_SURE] as const;
export const PREFERRED_CONTACT = ['phone', 'email', 'both'] as const;

/** How the value answers read in the CRM. */
export const ESTIMATED_VALUE_LABELS: Record<(typeof VALUE_ANSWERS)[number], string> = {
  '50k_100k': '$50,000 - $100,000',
  '100k_250k': '$100,000 - $250,000',
  '250k_500k': '$250,000 - $500,000',
  '500k_1m': '$500,000 - $1,000,000',
  over_1m: 'Over $1,000,000',
  not_sure: 'Not sure yet',
};

/** A value as a label: fire -> Fire. */
export const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** An e-mail address as the form checks it: non-space text, an @, a domain, a dot, a suffix. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The same pattern for the HTML pattern attribute (anchored by the browser). */
export const EMAIL_PATTERN = '[^\\s@]+@[^\\s@]+\\.[^\\s@]+';

/** Field length limits, shared by the form's maxlength and the endpoint's schema. */
export const LIMITS = {
  name: 200,
  email: 254,
  phone: 40,
  address: 300,
  text: 5000,
  city: 100,
} as const;

/** The lead endpoint's body limit. */
export const MAX_BODY_BYTES = 16 * 1024;
