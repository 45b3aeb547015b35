/**
 * JavaScript source with every character above U+00FF written as a \u escape.
 *
 * V8 keeps a source of Latin-1 characters one byte a character, and any other source two: one
 * typographic apostrophe in a regular expression, or a dash in a dependency's comment (esbuild
 * escapes strings, not those), made the CLI's 1.8 MB bundle cost 3.6 MB in every process, and the
 * render worker's in every worker. An escape means the same in a string, a template, a regular
 * expression (a surrogate pair too, with or without the u flag), an identifier and a comment;
 * only a template tag that reads the raw text would see the difference. Source map columns shift
 * on the few lines changed.
 *
 * @param {string} text
 * @returns {string}
 */
export function latin1Source(text) {
  return text.replace(/(\\*)([\u0100-\uffff])/g, (_, slashes, c) => {
    // An escaped character (a backslash before it in a string or a pattern) is the character.
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
