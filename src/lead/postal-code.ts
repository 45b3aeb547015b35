import type { PROVINCE_CODES } from '../site/provinces.js';

/** A Canadian postal code as people write it (any case, a space or none): "m5v 2t6", "M5V2T6". */
export const POSTAL_CODE = /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i;

/** As Canada Post prints it: upper case, one space. */
export const normalPostalCode = (code: string) =>
  code
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/^(.{3})/, '$1 ');

type Province = (typeof PROVINCE_CODES)[number];

/** Canada Post's first letters (the postal district), each in one province or territory. */
const DISTRICTS: Record<string, Province> = {
  A: 'NL',
  B: 'NS',
  C: 'PE',
  E: 'NB',
  G: 'QC',
  H: 'QC',
  J: 'QC',
  K: 'ON',
  L: 'ON',
  M: 'ON',
  N: 'ON',
  P: 'ON',
  R: 'MB',
  S: 'SK',
  T: 'AB',
  V: 'BC',
  Y: 'YT',
};

/**
 * The province of a postal code. X is shared by the Northwest Territories and Nunavut: Nunavut's
 * codes start X0A, X0B and X0C, the others are the Northwest Territories'.
 */
export function provinceOfPostalCode(code: string): Province | undefined {
  const c = code.toUpperCase().replace(/\s+/g, '');
  if (c.startsWith('X')) return /^X0[ABC]/.test(c) ? 'NU' : 'NT';
  return DISTRICTS[c.charAt(0)];
}
