const ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
};
const SPECIAL = /["&'<>]/g;

/** Text or an attribute value as HTML, escaped as React escapes them. */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (ch) => ESCAPES[ch] ?? ch);
}
