import { Marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import { escapeHtml } from '../html.js';

let marked: Marked | undefined;
const rendered = new Map<string, string>();

/**
 * Markdown to HTML; raw HTML in the source is shown as text, so content can never inject markup.
 * Rendered when a page asks for it, once per text: most builds render no page that shows it.
 */
export function renderMarkdown(source: string): string {
  let html = rendered.get(source);
  if (html === undefined) {
    marked ??= new Marked({
      gfm: true,
      async: false,
      renderer: {
        html: (token) => escapeHtml(token.text),
      },
    });
    html = marked.parse(source) as string;
    rendered.set(source, html);
  }
  return html;
}

/** Splits `---` YAML front matter from a Markdown body. */
export function splitFrontMatter(
  source: string,
): { data: unknown; body: string } | { error: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!m) return { error: 'must start with front matter between --- lines' };
  try {
    return { data: parseYaml(m[1] ?? '') as unknown, body: source.slice(m[0].length) };
  } catch (err) {
    return { error: `front matter is not valid YAML: ${(err as Error).message}` };
  }
}
