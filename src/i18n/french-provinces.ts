/**
 * How French names each province and territory in a sentence: with its article ("le Québec",
 * "l'Alberta"), and after "à" and "de", which contract with it ("au Québec", "en Alberta",
 * "du Québec", "de l'Alberta"). A service area's French name is made of these (src/site/region.ts),
 * and a sentence written "à {city}" reads right for it (src/i18n/catalogue.ts).
 */
interface FrenchProvinceForms {
  /** With its article, lower-case: "le Québec"; a sentence's start capitalises it. */
  article: string;
  /** After "à": "au Québec". */
  in: string;
  /** After "de": "du Québec". */
  of: string;
}

export const FRENCH_PROVINCE_FORMS: Readonly<Record<string, FrenchProvinceForms>> = {
  AB: { article: "l'Alberta", in: 'en Alberta', of: "de l'Alberta" },
  BC: {
    article: 'la Colombie-Britannique',
    in: 'en Colombie-Britannique',
    of: 'de la Colombie-Britannique',
  },
  MB: { article: 'le Manitoba', in: 'au Manitoba', of: 'du Manitoba' },
  NB: { article: 'le Nouveau-Brunswick', in: 'au Nouveau-Brunswick', of: 'du Nouveau-Brunswick' },
  NL: {
    article: 'Terre-Neuve-et-Labrador',
    in: 'à Terre-Neuve-et-Labrador',
    of: 'de Terre-Neuve-et-Labrador',
  },
  NS: { article: 'la Nouvelle-Écosse', in: 'en Nouvelle-Écosse', of: 'de la Nouvelle-Écosse' },
  NT: {
    article: 'les Territoires du Nord-Ouest',
    in: 'dans les Territoires du Nord-Ouest',
    of: 'des Territoires du Nord-Ouest',
  },
  NU: { article: 'le Nunavut', in: 'au Nunavut', of: 'du Nunavut' },
  ON: { article: "l'Ontario", in: 'en Ontario', of: "de l'Ontario" },
  PE: {
    article: "l'Île-du-Prince-Édouard",
    in: "à l'Île-du-Prince-Édouard",
    of: "de l'Île-du-Prince-Édouard",
  },
  QC: { article: 'le Québec', in: 'au Québec', of: 'du Québec' },
  SK: { article: 'la Saskatchewan', in: 'en Saskatchewan', of: 'de la Saskatchewan' },
  YT: { article: 'le Yukon', in: 'au Yukon', of: 'du Yukon' },
};

/** A name with its first letter capitalised, as it starts a heading or a label. */
export const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const forms = Object.values(FRENCH_PROVINCE_FORMS);
/** One province with its article, its first letter in either case. */
const ONE = forms
  .map(
    (f) =>
      `[${f.article.charAt(0).toUpperCase()}${f.article.charAt(0)}]${escapeRegExp(f.article.slice(1))}`,
  )
  .join('|');

/**
 * "à" or "de" before one or more provinces with their articles ("à le Québec et le
 * Nouveau-Brunswick"): each of them takes the preposition ("au Québec et au Nouveau-Brunswick").
 * No other French text has such an article before a province's name.
 */
export const PROVINCE_LIST = new RegExp(
  `(^|[\\s\\u00a0(«])(à|de) ((?:${ONE})(?:(?:, | et )(?:${ONE}))*)(?![\\p{L}-])`,
  'gu',
);

/** The forms of a province named with its article, in either case; undefined for anything else. */
export function formsOf(named: string): FrenchProvinceForms | undefined {
  const lower = named.charAt(0).toLowerCase() + named.slice(1);
  return forms.find((f) => f.article === lower || f.article === named);
}
