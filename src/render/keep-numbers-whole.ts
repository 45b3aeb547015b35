/**
 * Phone numbers in running text kept on one line. Content, catalogue and Markdown texts hold the
 * site's number and others (insurers' claims lines, a province's assistance line) as plain text,
 * and a line may break at a number's hyphen or space: "1-" at the end of one line and
 * "888-339-9809" on the next is misread and misdialled. Each North American number in the HTML's
 * text, with its extension, is wrapped in a `.nowrap` span: never inside a tag (an aria-label, a meta's content) nor in
 * the text of script, style, title, textarea or option.
 */
const EXTENSION = String.raw`(?:[ \u00a0](?:ext\.?|poste)[ \u00a0]?\d{1,6}|[ \u00a0]?x\d{1,6})`;
const NUMBER = new RegExp(
  String.raw`(?<![\w+])(?:1[-. \u00a0])?(?:\(\d{3}\)|\d{3})[-. \u00a0]\d{3}-\d{4}${EXTENSION}?(?![\w-])`,
  'g',
);
const RAW_TEXT = /^(?:script|style|title|textarea|option)[\s>]/i;

export function keepNumbersWhole(html: string): string {
  return html.replace(NUMBER, (number: string, at: number) =>
    inText(html, at) ? `<span class="nowrap">${number}</span>` : number,
  );
}

/** Whether `at` is in an element's text (React escapes every other "<" and ">" it writes). */
function inText(html: string, at: number): boolean {
  const open = html.lastIndexOf('<', at);
  if (open < 0) return true;
  if (html.lastIndexOf('>', at) < open) return false;
  return !RAW_TEXT.test(html.slice(open + 1, open + 12));
}
