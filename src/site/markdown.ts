import { Marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import { escapeHtml } from '../html.js';
import { underBase } from '../urls.js';

/** A Markdown reader for each folder a site is served from (see basePathOf). */
const readers = new Map<string, Marked>();
const rendered = new Map<string, string>();

/**
 * Markdown to HTML; raw HTML in the source is shown as text, so content can never inject markup.
 * A link to a path of the site (`[contact us](/contact/)`) is written under the site's folder,
 * `basePath`. Rendered when a page asks for it, once per text: most builds render no page that
 * shows it.
 */
export function renderMarkdown(source: string, basePath = ''): string {
  const key = `${basePath}\0${source}`;
  let html = rendered.get(key);
  if (html === undefined) {
    let marked = readers.get(basePath);
    if (!marked) {
      marked = new Marked({
        gfm: true,
        async: false,
        renderer: {
          html: (token) => escapeHtml(token.text),
        },
        walkTokens: (token) => {
          if ((token.type === 'link' || token.type === 'image') && basePath)
            token.href = underBase(basePath, token.href);
        },
      });
      readers.set(basePath, marked);
    }
    html = marked.parse(source) as string;
    rendered.set(key, html);
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
