import { escapeHtml } from '../html.js';

/**
 * The bundled mark, a shield with a check, drawn in the theme's colours: the header's logo until
 * the owner gives one, the default favicon, and the share images' icon. A 32 by 32 box.
 */
export const SHIELD = {
  shield: 'M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7L16 2Z',
  check: 'm10.5 16.2 3.8 3.8 7.4-8',
} as const;

/** The shield as an SVG file: the default favicon, named by the site. */
export function shieldSvg(shield: string, check: string, title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>${escapeHtml(title)}</title>` +
    `<path d="${SHIELD.shield}" fill="${shield}"/>` +
    `<path d="${SHIELD.check}" fill="none" stroke="${check}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`
  );
}
