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
  let slug = made.get(input);
  if (slug === undefined) {
    slug = slugOf(input);
    // Names repeat (an area name in many cities, each checked and then made): each is made once,
    // as long as the names stay few enough to keep.
    if (made.size < MADE_MAX) made.set(input, slug);
  }
  return slug;
}

const made = new Map<string, string>();
const MADE_MAX = 100_000;

function slugOf(input: string): string {
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
