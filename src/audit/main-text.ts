/**
 * The text a visitor reads in a page's `<main>`, as the content audit measures it: without the
 * breadcrumbs (every page has them), forms (the same questionnaire everywhere), scripts and
 * styles, tags and entities. An empty string for a page without `<main>`.
 */
export function mainText(html: string): string {
  const open = html.indexOf('<main');
  if (open < 0) return '';
  const close = html.indexOf('</main>', open);
  return decodeEntities(
    html
      .slice(open, close < 0 ? html.length : close)
      .replace(SKIPPED, ' ')
      .replace(BREADCRUMBS, ' ')
      // A block's end ends its sentence (a heading, a list item), for the audit's relevance.
      .replace(BLOCK_END, '\n')
      .replace(TAG, ' '),
  );
}

const SKIPPED = /<(script|style|form|template)\b[\s\S]*?<\/\1>/g;
const BREADCRUMBS = /<nav\b[^>]*aria-label="Breadcrumb"[^>]*>[\s\S]*?<\/nav>/g;
const TAG = /<[^>]*>/g;
const BLOCK_END =
  /<\/(?:p|li|h[1-6]|dt|dd|td|th|blockquote|figcaption|address|summary)>|<br\s*\/?>/g;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
