import path from 'node:path';
import type { AboutContent } from './content-schema.js';
import { displayPath } from './display-path.js';
import type { DataIssue } from './errors.js';
import { staleFacts } from './fact-ages.js';
import type { Site } from './model.js';
import { PROVINCES } from './provinces.js';
import { areaProvinceCodes } from './service-area.js';

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

/**
 * Every sample marker left in the data, each named by its file, record and field: what
 * `generate --strict`, the publishing build, refuses to publish. The French content's too, where
 * the site has French pages.
 */
export function sampleMarkers(site: Site, dataDir: string): DataIssue[] {
  const file = (rel: string) => displayPath(path.join(dataDir, rel));
  const listed = site.settings.sample ?? [];
  const out: DataIssue[] = listed.map((name, i) => ({
    file: file('site.json'),
    record: null,
    field: `sample.${i}`,
    message: `"${name}" still holds the bundled sample value: set your own, then remove "${name}" from sample`,
  }));
  site.content.testimonials.forEach((t, i) => {
    if (t.sample)
      out.push({
        file: file('content/testimonials.json'),
        record: `#${i + 1}`,
        field: 'sample',
        message: `"${t.name}, ${t.city}" is a sample testimonial: replace it with a client's own words, given with consent, or remove it`,
      });
  });
  out.push(...aboutMarkers(site.content.about, file('content/about.json')));
  const french = site.languages.get('fr');
  if (french) out.push(...aboutMarkers(french.content.about, file('fr/content/about.json')));
  return out;
}

function aboutMarkers(about: AboutContent, file: string): DataIssue[] {
  const out: DataIssue[] = [];
  about.stats.forEach((s, i) => {
    if (s.sample)
      out.push({
        file,
        record: null,
        field: `stats.${i}.sample`,
        message: `"${s.value} ${s.label}" is a sample figure: replace it with your own, or remove it`,
      });
  });
  about.badges.forEach((b, i) => {
    if (b.sample)
      out.push({
        file,
        record: null,
        field: `badges.${i}.sample`,
        message: `"${b.title}" is a sample badge: replace it with your own, or remove it`,
      });
  });
  return out;
}

/**
 * The provinces and territories of the service area for which site.json gives no licence, by
 * code; `required` where the data set knows who licenses adjusters there (provinces.json), as
 * every one of the 13 does. None without a service area: the site then says what is missing of
 * the licences as a whole (missingTrust).
 */
function licenceGaps(site: Site): Array<{ code: string; required: boolean }> {
  if (!site.area) return [];
  const held = new Set<string>((site.settings.business?.licences ?? []).map((l) => l.province));
  return areaProvinceCodes(site.cities)
    .filter((code) => !held.has(code))
    .map((code) => ({ code, required: site.facts.provinces.has(code) }));
}

const provinceName = (code: string) => PROVINCES.find((p) => p.code === code)?.name ?? code;

/**
 * What `generate --strict` refuses to publish: every sample marker, a province of the
 * service area that requires a licence the settings do not give, and a programme, amount or
 * deadline not read at its source for too long (see fact-ages.ts).
 */
export function publishingIssues(site: Site, dataDir: string): DataIssue[] {
  const settingsFile = displayPath(path.join(dataDir, 'site.json'));
  const licences = licenceGaps(site)
    .filter((g) => g.required)
    .map((g) => {
      const regulator = site.facts.provinces.get(g.code)?.regulator.name;
      return {
        file: settingsFile,
        record: null,
        field: 'business.licences',
        message: `has no licence for ${provinceName(g.code)} (${g.code}), which is in serviceArea: ${regulator ?? 'its regulator'} licenses adjusters there; add { "province": "${g.code}", "issuedBy": "…", "number": "…" }`,
      };
    });
  return [...sampleMarkers(site, dataDir), ...licences, ...staleFacts(site, dataDir)];
}

/** What site.json does not yet say of the business, which a homeowner would want to check. */
export function missingTrust(site: Site): string[] {
  const b = site.settings.business ?? {};
  const gaps = licenceGaps(site).map(
    (g) =>
      `business.licences: none for ${provinceName(g.code)} (${g.code}), in the service area${g.required ? ' (generate --strict refuses to publish without it)' : ''}`,
  );
  return [
    ...(b.legalName ? [] : ['business.legalName (the legal business name)']),
    ...(b.address ? [] : ['business.address (a street address)']),
    ...(b.licences && b.licences.length > 0
      ? []
      : site.area
        ? []
        : ['business.licences (the licence or registration in each province where it operates)']),
    ...gaps,
  ];
}

/** Those as a warning, or nothing once site.json says them all. */
export function trustNotice(missing: readonly string[]): string {
  return missing.length === 0
    ? ''
    : `Missing from site.json, so not shown to visitors who want to check who you are:\n${missing.map((m) => `  ${m}\n`).join('')}`;
}
