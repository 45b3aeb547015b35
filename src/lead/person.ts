import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * How a person is looked up in the store, whatever way they wrote it: an e-mail address in
 * lower case, a phone number in E.164 (`416-555-0199` and `+1 (416) 555 0199` are one person;
 * numbers without a country code are Canadian). A number libphonenumber cannot read is kept as
 * its digits, so that the same digits still find it.
 */
export function emailKey(email: string | undefined): string | null {
  const key = email?.trim().toLowerCase();
  return key ? key : null;
}

export function phoneKey(phone: string | undefined): string | null {
  if (!phone?.trim()) return null;
  const parsed = parsePhoneNumberFromString(phone, 'CA');
  if (parsed?.isPossible()) return parsed.number;
  const digits = phone.replace(/\D/g, '');
  return digits ? digits : null;
}

/** The keys of a lead's person, as the store indexes them. */
export function personKeys(lead: { email?: string; phone?: string }) {
  return { email: emailKey(lead.email), phone: phoneKey(lead.phone) };
}

/**
 * A phone number as the CRM takes it: E.164 (`+14165550199`), with its extension apart (the
 * note carries it: GoHighLevel's phone field has no place for one). Null when libphonenumber
 * cannot read it as a valid number; the number then goes only in the note, as typed.
 */
export function crmPhone(phone: string | undefined): { e164: string; ext?: string } | null {
  if (!phone?.trim()) return null;
  // libphonenumber reads "ext." and "x", not the French "poste".
  const parsed = parsePhoneNumberFromString(phone.replace(/\bposte\b/i, 'ext.'), 'CA');
  if (!parsed?.isValid()) return null;
  return { e164: parsed.number, ...(parsed.ext ? { ext: parsed.ext } : {}) };
}
