// Writes the bench's figures into docs/benchmarks.md: one table per size, each between its own
// markers (<!-- bench:1x --> ... <!-- /bench:1x -->), replaced when that size is measured again;
// the other sizes' tables, measured on another day, stay as they are with their date.
import { readFile, writeFile } from 'node:fs/promises';

/** A markdown table: the first row is the header; columns but the first and last align right. */
export function markdownTable(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const align = head.map((_, i) => (i === 0 || i === head.length - 1 ? '---' : '---:'));
  return [head, align, ...body].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Puts each size's text between its markers, or before `<!-- bench:end -->` if it has none. */
export async function writeBenchDocs(
  file: string,
  sections: ReadonlyArray<{ label: string; text: string }>,
): Promise<void> {
  let doc = await readFile(file, 'utf8');
  for (const { label, text } of sections) {
    const open = `<!-- bench:${label} -->`;
    const close = `<!-- /bench:${label} -->`;
    const block = `${open}\n${text.trim()}\n${close}`;
    const start = doc.indexOf(open);
    const end = doc.indexOf(close);
    if (start >= 0 && end > start)
      doc = doc.slice(0, start) + block + doc.slice(end + close.length);
    else if (doc.includes('<!-- bench:end -->'))
      doc = doc.replace('<!-- bench:end -->', `${block}\n\n<!-- bench:end -->`);
    else
      throw new Error(`${file} has no <!-- bench:end --> marker to put the ${label} table before`);
  }
  await writeFile(file, doc);
}
