/**
 * The site's languages. English is the site as it always was, at the root; French is a prefix
 * and a table of route segments (data/i18n/fr.json), not a second set of templates.
 */
const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

/** BCP 47 tags: `<html lang>`, hreflang and the sitemap's alternates. */
export const LANG_TAGS: Record<Lang, string> = { en: 'en-CA', fr: 'fr-CA' };

/** Open Graph's form of the same. */
export const OG_LOCALES: Record<Lang, string> = { en: 'en_CA', fr: 'fr_CA' };

/** The first path segment of a language's pages; none for English. */
export const LANG_PREFIX: Record<Lang, string> = { en: '', fr: 'fr' };

/**
 * The provinces whose cities have French pages (their province's page too): Québec, and New
 * Brunswick, officially bilingual.
 */
export const FRENCH_PROVINCES: readonly string[] = ['QC', 'NB'];

/** The language of a page by its path: a French page is under /fr/. */
export function langOfPath(path: string | null | undefined): Lang {
  return path === '/fr' || path?.startsWith('/fr/') ? 'fr' : 'en';
}
