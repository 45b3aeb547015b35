/** The 13 provinces and territories, with their postal codes. */
export const PROVINCES = [
  { code: 'AB', name: 'Alberta', territory: false },
  { code: 'BC', name: 'British Columbia', territory: false },
  { code: 'MB', name: 'Manitoba', territory: false },
  { code: 'NB', name: 'New Brunswick', territory: false },
  { code: 'NL', name: 'Newfoundland and Labrador', territory: false },
  { code: 'NS', name: 'Nova Scotia', territory: false },
  { code: 'ON', name: 'Ontario', territory: false },
  { code: 'PE', name: 'Prince Edward Island', territory: false },
  { code: 'QC', name: 'Quebec', territory: false },
  { code: 'SK', name: 'Saskatchewan', territory: false },
  { code: 'NT', name: 'Northwest Territories', territory: true },
  { code: 'NU', name: 'Nunavut', territory: true },
  { code: 'YT', name: 'Yukon', territory: true },
] as const;

type ProvinceCode = (typeof PROVINCES)[number]['code'];
type ProvinceName = (typeof PROVINCES)[number]['name'];

export const PROVINCE_CODES = PROVINCES.map((p) => p.code) as [ProvinceCode, ...ProvinceCode[]];
export const PROVINCE_NAMES = PROVINCES.map((p) => p.name) as [ProvinceName, ...ProvinceName[]];

export function provinceByName(name: string) {
  return PROVINCES.find((p) => p.name === name);
}

/** By its page's slug under canada/ (`british-columbia`): the same in every language. */
export function provinceBySlug(slug: string) {
  return PROVINCES.find((p) => p.name.toLowerCase().replaceAll(' ', '-') === slug);
}

export function provinceByCode(code: string) {
  return PROVINCES.find((p) => p.code === code);
}
