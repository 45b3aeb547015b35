import path from 'node:path';
import { displayPath } from './display-path.js';
import type { DataIssue } from './errors.js';
import { heldToAge, olderThan, today } from './fact-dates.js';
import type { Site } from './model.js';

/** How long a programme, amount or deadline may go unread at its source, by default. */
const FACTS_MAX_AGE_MONTHS = 24;

/** A dated fact of the data set, where it is: its file, record and field path. */
interface DatedFact {
  file: 'local-facts.json' | 'provinces.json';
  record: string;
  /** The fact's path in its file, its own fields after a dot. */
  at: string;
  fact: {
    topic?: string;
    text: string;
    asOf: string;
    checked: string;
    source: { url: string; publisher: string };
  };
}

/** Every local fact and every province's assistance fact, in the data's order. */
function datedFacts(site: Site): DatedFact[] {
  const out: DatedFact[] = [];
  for (const [slug, list] of site.facts.local)
    for (const [i, fact] of list.entries())
      out.push({ file: 'local-facts.json', record: slug, at: `${i}`, fact });
  [...site.facts.provinces.values()].forEach((p, i) => {
    p.assistance?.forEach((fact, k) => {
      const at = `provinces.${i}.assistance.${k}`;
      out.push({
        file: 'provinces.json',
        record: p.code,
        at,
        fact: { ...fact, topic: 'assistance' },
      });
    });
    p.permits?.forEach((fact, k) => {
      out.push({
        file: 'provinces.json',
        record: p.code,
        at: `provinces.${i}.permits.${k}`,
        fact: { ...fact, topic: 'permits' },
      });
    });
  });
  return out;
}

/**
 * What a publishing build refuses: a programme, amount or deadline last read at its source more
 * than `factsMaxAgeMonths` (site.json, default 24) before `on`, named by file, record and field.
 */
export function staleFacts(site: Site, dataDir: string, on = today()): DataIssue[] {
  const months = site.settings.factsMaxAgeMonths ?? FACTS_MAX_AGE_MONTHS;
  return datedFacts(site)
    .filter((d) => heldToAge(d.fact) && olderThan(d.fact.checked, months, on))
    .map((d) => ({
      file: displayPath(path.join(dataDir, d.file)),
      record: d.record,
      field: `${d.at}.checked`,
      message: `was last read at its source on ${d.fact.checked}, more than ${months} months ago: read ${d.fact.source.url} again and update the fact and its "checked", or remove it`,
    }));
}

/** Who publishes a source: a public body, an archive, or a newspaper, broadcaster or other. */
type SourceKind = 'public body' | 'archive' | 'news and other';

const PUBLIC_HOST =
  /(^|\.)(gc\.ca|gov\.[a-z]{2}\.ca|gouv\.qc\.ca|gnb\.ca|ontario\.ca|alberta\.ca|manitoba\.ca|yukon\.ca|novascotia\.ca|saskatchewan\.ca|saskpublicsafety\.ca)$|(^|\.)(ville|city|town)\./;
const PUBLIC_PUBLISHER =
  /^(City|Town|Ville|Municipalit|Region|Regional|County|Township|District|Government|Gouvernement|Province|Village|Utilities|Halifax Water|EPCOR|Ministère|Conservation)/i;

function sourceKind(source: { url: string; publisher: string }): SourceKind {
  const host = new URL(source.url).hostname;
  if (/(^|\.)(archive\.org|archive-it\.org)$/.test(host)) return 'archive';
  if (PUBLIC_HOST.test(host) || PUBLIC_PUBLISHER.test(source.publisher)) return 'public body';
  return 'news and other';
}

const AGES = [
  { label: 'read within 12 months', months: 12 },
  { label: 'read 12 to 24 months ago', months: 24 },
  { label: 'read more than 24 months ago', months: Number.POSITIVE_INFINITY },
] as const;

/** The facts' table: how many by age (since read, and the year they tell of) and source kind. */
export function factsTable(site: Site, on = today()): string {
  const facts = datedFacts(site);
  if (facts.length === 0) return '';
  const age = (checked: string) =>
    AGES.find((a) => a.months === Number.POSITIVE_INFINITY || !olderThan(checked, a.months, on))
      ?.label ?? '';
  const era = (asOf: string) => {
    const y = Number(asOf.slice(0, 4));
    return y < 2015
      ? 'before 2015'
      : y < 2020
        ? '2015 to 2019'
        : y < 2024
          ? '2020 to 2023'
          : '2024 or later';
  };
  const rows = (name: string, of: (d: DatedFact) => string, order: readonly string[]) => {
    const counts = new Map<string, { all: number; held: number }>(
      order.map((k) => [k, { all: 0, held: 0 }]),
    );
    for (const d of facts) {
      const c = counts.get(of(d));
      if (!c) continue;
      c.all++;
      if (heldToAge(d.fact)) c.held++;
    }
    return [
      `  ${name}:`,
      ...[...counts].map(
        ([k, c]) =>
          `    ${k.padEnd(30)} ${String(c.all).padStart(5)} ${String(c.held).padStart(8)}`,
      ),
    ];
  };
  return `${[
    `Dated facts (local facts and provincial assistance): ${facts.length}, ${facts.filter((d) => heldToAge(d.fact)).length} of them a programme, amount or deadline (held to its age by generate --strict)`,
    `    ${''.padEnd(30)} ${'facts'.padStart(5)} ${'held'.padStart(8)}`,
    ...rows(
      'By when last read at the source',
      (d) => age(d.fact.checked),
      AGES.map((a) => a.label),
    ),
    ...rows('By the year they tell of (asOf)', (d) => era(d.fact.asOf), [
      'before 2015',
      '2015 to 2019',
      '2020 to 2023',
      '2024 or later',
    ]),
    ...rows('By source', (d) => sourceKind(d.fact.source), [
      'public body',
      'news and other',
      'archive',
    ]),
  ].join('\n')}\n`;
}
