import type { Site } from './model.js';

/**
 * What the data set still holds of the bundled samples, one line per file: what a site owner
 * must replace before publishing (the data marks it with `sample`).
 */
export function sampleData(site: Site): string[] {
  const lines: string[] = [];
  const settings = site.settings.sample ?? [];
  if (settings.length > 0) lines.push(`site.json: ${settings.join(', ')}`);
  const { testimonials, about } = site.content;
  const samples = testimonials.filter((t) => t.sample).length;
  if (samples > 0)
    lines.push(
      `content/testimonials.json: ${samples} of ${testimonials.length} testimonials (no rating markup is published for them)`,
    );
  const stats = about.stats.filter((s) => s.sample).map((s) => `"${s.value} ${s.label}"`);
  const badges = about.badges.filter((b) => b.sample).map((b) => `"${b.title}"`);
  const figures = [
    ...(stats.length > 0 ? [`figures ${stats.join(', ')}`] : []),
    ...(badges.length > 0 ? [`badges ${badges.join(', ')}`] : []),
  ];
  if (figures.length > 0) lines.push(`content/about.json: ${figures.join('; ')}`);
  return lines;
}

/** Those lines as a notice, or nothing once every sample is replaced. */
export function sampleNotice(lines: readonly string[]): string {
  return lines.length === 0
    ? ''
    : `Sample data to replace before publishing:\n${lines.map((l) => `  ${l}\n`).join('')}`;
}

/** What site.json does not yet say of the business, which a homeowner would want to check. */
export function missingTrust(site: Site): string[] {
  const b = site.settings.business ?? {};
  return [
    ...(b.legalName ? [] : ['business.legalName (the legal business name)']),
    ...(b.address ? [] : ['business.address (a street address)']),
    ...(b.licences && b.licences.length > 0
      ? []
      : ['business.licences (the licence or registration in each province where it operates)']),
  ];
}

/** Those as a warning, or nothing once site.json says them all. */
export function trustNotice(missing: readonly string[]): string {
  return missing.length === 0
    ? ''
    : `Missing from site.json, so not shown to visitors who want to check who you are:\n${missing.map((m) => `  ${m}\n`).join('')}`;
}
