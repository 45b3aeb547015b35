import { describe, expect, it } from 'vitest';
import { factsTable, staleFacts } from '../src/site/fact-ages.js';
import { datedKinds, monthsBefore, olderThan, showsAsOf } from '../src/site/fact-dates.js';
import { loadSite } from '../src/site/load.js';
import { publishingIssues } from '../src/site/sample.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, runCli, textOf } from './helpers.js';
import { pageRenderer } from './render-pages.js';

type Facts = Record<string, Array<Record<string, unknown>>>;
type Provinces = {
  provinces: Array<{ code: string; assistance?: Array<Record<string, unknown>> }>;
};

const site = await loadSite(BUNDLED_DATA);
const { render } = pageRenderer(site);

describe('the dates of a fact', () => {
  it('are on every local and assistance fact of the bundled data', () => {
    let n = 0;
    for (const list of site.facts.local.values())
      for (const f of list) {
        expect(f.asOf).toMatch(/^\d{4}(-\d{2}(-\d{2})?)?$/);
        expect(f.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        n++;
      }
    for (const p of site.facts.provinces.values())
      for (const a of p.assistance ?? []) {
        expect(a.asOf).toBeDefined();
        expect(a.checked).toBeDefined();
        n++;
      }
    expect(n).toBeGreaterThan(150);
  });

  it('are required and checked, each error naming its file, record and field', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      const [a, b] = facts.toronto ?? [];
      if (a) delete a.asOf;
      if (b) b.checked = '2026-13-01';
      facts.ottawa?.forEach((f) => {
        f.asOf = '2026-06';
        f.checked = '2025-01-01';
      });
    });
    await editJson(data, 'provinces.json', (p: Provinces) => {
      const on = p.provinces.find((x) => x.code === 'ON')?.assistance?.[0];
      if (on) on.checked = 'last week';
    });
    const issues = await dataIssues(data);
    const at = (file: string, field: string) =>
      issues.find((i) => i.file.endsWith(file) && i.field?.endsWith(field));
    expect(at('local-facts.json', 'toronto.0.asOf')?.message).toMatch(/required/);
    expect(at('local-facts.json', 'toronto.1.checked')?.message).toMatch(/calendar date|ISO/);
    expect(at('local-facts.json', 'ottawa.0.checked')?.message).toMatch(/before asOf \(2026-06\)/);
    const on = [...site.facts.provinces.keys()].indexOf('ON');
    expect(at('provinces.json', `provinces.${on}.assistance.0.checked`)?.message).toMatch(
      /YYYY-MM-DD/,
    );
  });
});

describe('what a fact tells that can stop being true', () => {
  it('is a programme, an amount, a deadline or an address, read from its words', () => {
    expect(
      datedKinds({ topic: 'protection', text: 'The City pays up to $1,000 for a valve.' }),
    ).toEqual(['programme', 'amount']);
    expect(datedKinds({ topic: 'report', text: 'Apply within 90 days of the flood.' })).toEqual([
      'deadline',
    ]);
    expect(
      datedKinds({ topic: 'report', text: 'Write to City Hall, 200 McIntyre Street East.' }),
    ).toEqual(['address']);
    expect(showsAsOf({ topic: 'risk', text: 'In 2016 about 225 mm of rain fell.' })).toBe(false);
  });

  it('is shown with its year on the page, in English and in French', () => {
    const toronto = site.facts.local.get('toronto')?.[0];
    expect(toronto && showsAsOf(toronto)).toBe(true);
    // Toronto's page answers the four questions: its facts are told there (CityAnswers).
    const help = render('/toronto/').querySelector('[aria-labelledby="answers-title"]');
    const item = help
      ?.querySelectorAll('li')
      .find((li) => textOf(li).includes(toronto?.text ?? '-'));
    expect(textOf(item?.querySelector('.source'))).toBe(
      `(Source: City of Toronto, as of ${toronto?.asOf.slice(0, 4)})`,
    );
    const granby = site.facts.local.get('granby')?.[0];
    expect(granby && showsAsOf(granby)).toBe(true);
    const fr = render('/fr/granby/').querySelector('[aria-labelledby="local-help-title"]');
    expect(textOf(fr)).toContain(`, en date de ${granby?.asOf.slice(0, 4)})`);
    expect(textOf(fr)).not.toContain('as of');
  });

  it('a past event keeps its source alone', () => {
    const cape = site.facts.local.get('cape-breton')?.[0];
    expect(cape && showsAsOf(cape)).toBe(false);
    expect(textOf(render('/cape-breton/').querySelector('.fact-list .source'))).toBe(
      '(Source: CBC News)',
    );
  });
});

describe('a publishing build and the age of facts', () => {
  it('passes on the bundled data', () => {
    expect(staleFacts(site, BUNDLED_DATA)).toEqual([]);
  });

  it('refuses a programme, amount or deadline read more than 24 months ago, naming where it is', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      const [subsidy] = facts.toronto ?? [];
      if (subsidy) Object.assign(subsidy, { asOf: '2020', checked: '2020-03-01' });
      // A past event read long ago is not held to its age.
      const [flood] = facts['cape-breton'] ?? [];
      if (flood) flood.checked = '2017-01-01';
    });
    const edited = await loadSite(data);
    const stale = staleFacts(edited, data, '2026-12-07');
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatchObject({ record: 'toronto', field: '0.checked' });
    expect(stale[0]?.file).toMatch(/local-facts\.json$/);
    expect(stale[0]?.message).toMatch(
      /2020-03-01, more than 24 months ago: read https:\/\/www\.toronto\.ca/,
    );
    expect(publishingIssues(edited, data).some((i) => i.record === 'toronto')).toBe(true);
    // Within the months the owner sets, it passes.
    await editJson(data, 'site.json', (s: Record<string, unknown>) => {
      s.factsMaxAgeMonths = 120;
    });
    expect(staleFacts(await loadSite(data), data, '2026-12-07')).toEqual([]);
  });

  it('counts months by the calendar', () => {
    expect(monthsBefore('2026-12-07', 24)).toBe('2024-12-07');
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(olderThan('2024-12-07', 24, '2026-12-07')).toBe(false);
    expect(olderThan('2024-12-06', 24, '2026-12-07')).toBe(true);
  });
});

describe("the facts' table", () => {
  it('counts the facts by when they were read, the year they tell of and who published them', () => {
    const table = factsTable(site, '2026-12-07');
    const count = (label: string) => Number(new RegExp(`${label}\\s+(\\d+)`).exec(table)?.[1]);
    const all = Number(
      /Dated facts \(local facts and provincial assistance\): (\d+)/.exec(table)?.[1],
    );
    expect(all).toBeGreaterThan(150);
    expect(
      count('read within 12 months') +
        count('read 12 to 24 months ago') +
        count('read more than 24 months ago'),
    ).toBe(all);
    expect(count('public body') + count('news and other') + count('archive')).toBe(all);
    expect(
      count('before 2015') + count('2015 to 2019') + count('2020 to 2023') + count('2024 or later'),
    ).toBe(all);
    // Two years on, every fact read now is old.
    expect(/read more than 24 months ago\s+(\d+)/.exec(factsTable(site, '2030-01-01'))?.[1]).toBe(
      String(all),
    );
  });

  it('is printed by validate', () => {
    const r = runCli(['validate', '--data', BUNDLED_DATA]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Dated facts \(local facts and provincial assistance\): \d+/);
    expect(r.stdout).toMatch(/By source:\n\s+public body\s+\d+/);
  });
});
