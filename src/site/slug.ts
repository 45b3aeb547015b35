/** Letters NFKD does not take apart: ligatures and a few others, as they are spelled in ASCII. */
const FOLDED: Record<string, string> = {
  œ: 'oe',
  æ: 'ae',
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
};

/** The one slug rule (DESIGN.md "Slugs"): used for cities, areas, and the city lookup. */
export function slugify(input: string): string {
  return (
    input
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[œæßøłđðþ]/g, (c) => FOLDED[c] ?? '')
      .trim()
      // Spaces and dashes of any kind (hyphen, en dash, em dash) between words: one hyphen.
      .replace(/[\s\p{Pd}]+/gu, '-')
      .replace(/[^a-z0-9-]/g, '')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
  );
}
