import type { PlaceholderValues } from '../i18n/placeholders.js';
import type { DataIssue } from './errors.js';
import type { Formats } from './format.js';
import { readLogo } from './logo.js';
import type { Branding } from './model.js';
import { type Phone, parsePhone } from './phone.js';
import type { RegionWords } from './region.js';
import type { SiteSettings } from './schema.js';
import { themeOf } from './theme.js';

/**
 * What site.json's owner values make once checked beyond their shape: the phone number parsed,
 * the theme's colours readable, the logo a picture the public folder holds. Each problem names
 * site.json's field, the value and what to do; undefined when there is one.
 */
export function brandingOf(
  settings: SiteSettings,
  file: string,
  publicDir: string | null | undefined,
  issues: DataIssue[],
): Branding | undefined {
  const before = issues.length;
  const at = (field: string, message: string) =>
    issues.push({ file, record: null, field, message });

  const parsed = parsePhone(settings.phone);
  if ('error' in parsed) at('phone', parsed.error);

  const { theme, problems } = themeOf(settings.theme);
  for (const p of problems) at(p.field, p.message);

  let logo: Branding['logo'] = null;
  if (settings.logo) {
    const read = readLogo(settings.logo, publicDir);
    if ('error' in read) at('logo', read.error);
    else logo = read.logo;
  }
  if (issues.length > before || 'error' in parsed) return undefined;
  return { phone: parsed.phone, theme, logo };
}

/**
 * Who answers for personal information when site.json names no one: Québec's private-sector act
 * (s. 3.1) makes it the person with the highest authority in the business.
 */
const NO_OFFICER = {
  en: (site: string) => `the person with the highest authority at ${site}`,
  fr: (site: string) => `la personne ayant la plus haute autorité au sein de ${site}`,
};

/** The site's placeholders' values, as a language writes them (its phone number's form, its region). */
export function placeholderValues(
  settings: SiteSettings,
  phone: Phone,
  format: Formats,
  region: RegionWords,
  lang: 'en' | 'fr' = 'en',
): PlaceholderValues {
  const officer = settings.privacyOfficer;
  // French pages: the owner's French words where given (src/site/french.ts), never an English promise.
  const own = lang === 'fr' ? (settings.fr ?? {}) : settings;
  return {
    siteName: settings.siteName,
    phone: format.phone(phone),
    email: own.email ?? settings.email,
    officeHours: own.officeHours ?? settings.officeHours,
    emergencyHours: own.emergencyHours ?? settings.emergencyHours,
    responsePromise: own.responsePromise ?? '',
    privacyEmail: settings.privacyEmail,
    region: region.name,
    inRegion: region.in,
    privacyOfficer: officer
      ? `${officer.name}${officer.title ? `, ${officer.title}` : ''}`
      : NO_OFFICER[lang](settings.siteName),
  };
}
