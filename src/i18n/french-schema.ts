import * as z from 'zod';

const text = z.string().trim().min(1, 'must not be empty');

/**
 * data/fr/places.json: the French texts of the places French pages show. Every city the
 * language covers gives its description; names only where French writes them otherwise.
 */
export const placesSchema = z.strictObject({
  national: z.strictObject({ description: text }),
  cities: z.record(
    z.string(),
    z.strictObject({
      name: text.optional(),
      description: text,
      /** By the area's English name: the French of its description. */
      areas: z.record(z.string(), text).optional(),
    }),
  ),
  /** Provinces and territories by their English names. */
  provinces: z.record(z.string(), text),
  /** Area names French writes otherwise, by their English names. */
  areaNames: z.record(z.string(), text).optional(),
});

const named = z.strictObject({ name: text, text });

/** data/fr/facts.json: the French of the sourced facts French pages show (sources unchanged). */
export const frenchFactsSchema = z.strictObject({
  national: z.strictObject({ complaints: z.array(named) }),
  provinces: z.record(
    z.string(),
    z.strictObject({
      regulator: named,
      facts: z.array(z.strictObject({ text })),
      complaints: z.array(named),
      lookup: z.strictObject({ text }).optional(),
    }),
  ),
  /** By the English name. */
  catastrophes: z.record(z.string(), z.strictObject({ name: text, insuredDamage: text })),
  /** Which estimate an amount is, by its English label. */
  estimates: z.record(z.string(), text),
});

export type Places = z.infer<typeof placesSchema>;
export type FrenchFacts = z.infer<typeof frenchFactsSchema>;
