import { createHash } from 'node:crypto';

/**
 * The version of the consent wording a form shows under it: its language and a digest of its
 * exact words, so that any change of wording is a new version without anyone counting. The form
 * sends both; the lead endpoint checks that they belong together and records them with the lead.
 */
export function consentVersion(lang: string, text: string): string {
  return `${lang}-${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12)}`;
}

export const CONSENT_VERSION = /^[a-z]{2}-[0-9a-f]{12}$/;
