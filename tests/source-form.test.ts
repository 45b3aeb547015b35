import { describe, expect, it } from 'vitest';
import { sourceFormProblem } from '../src/site/source-form.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson } from './helpers.js';

type Facts = Record<string, Array<{ source: { publisher: string; url: string } }>>;

/** Every { publisher, url } in a parsed data file. */
function sourcesIn(value: unknown, out: Array<{ publisher: string; url: string }> = []) {
  if (Array.isArray(value)) for (const v of value) sourcesIn(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.url === 'string' && typeof o.publisher === 'string')
      out.push({ publisher: o.publisher, url: o.url });
    for (const v of Object.values(o)) sourcesIn(v, out);
  }
  return out;
}

const { readdir, readFile } = await import('node:fs/promises');
const files = [
  'local-facts.json',
  'provinces.json',
  'catastrophes.json',
  'insurers.json',
  'sources.json',
  'national.json',
  ...(await readdir(`${BUNDLED_DATA}/cities`))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `cities/${f}`),
];
const bundled = (
  await Promise.all(
    files.map(async (f) => sourcesIn(JSON.parse(await readFile(`${BUNDLED_DATA}/${f}`, 'utf8')))),
  )
).flat();

describe("a source's address", () => {
  it.each([
    ['https://www.cbc.ca/news/canada/windsor/chatham-thamesville-flood-disaster-relief-1.4559950'],
    ['https://www.steinbachonline.com/articles/big-sidewalk-project'],
    ['https://en.wikipedia.org/wiki/Quebec_City'],
    ['https://en.wikivoyage.org/wiki/Quebec_City'],
    ['https://vitacollections.ca/WhitbyNews/3719628/page/8'],
    ['https://mississauga.ca/?p=109755'],
  ])('is accepted at its publisher: %s', (url) => {
    expect(sourceFormProblem({ publisher: 'A publisher', url })).toBeNull();
  });

  it.each([
    ['http://leveil.com./actualites/inondation', /malformed host \(leveil\.com\.\)/],
    ['http://35.201.78.98/news/canada/sudbury/flood-1.2694403', /bare IP address/],
    [
      'https://www-prd.calgary.ca/water/wastewater/sewage-backup.html',
      /internal, development or test host/,
    ],
    ['https://development.thecanadianencyclopedia.ca/en/article/sarnia', /internal/],
    ['https://theweathernetwork.sky-stg.pelmorex.com/en/news/x', /internal/],
    ['https://staging.areavibes.com/moncton-nb', /internal/],
    ['http://amp.cbc.ca/news/canada/north/city-whitehorse-flood-1.6104910', /AMP copy/],
    ['https://amp.cbc.ca/lite/story/1.5529568', /AMP copy/],
    ['https://globalnews.ca/news/5313168/durham-region-high-alert-water-levels/amp', /AMP copy/],
    ['https://itsabouttravelling.com/peterborough-lift-lock/?amp=1', /AMP copy/],
    ['https://www.steinbachonline.com/articles?id=819&page=3468&task=view', /listing page/],
    ['https://tvrm.ca/author/tvrm/page/4/', /listing page/],
    ['https://some-copy.example/wiki/Quebec_City', /a copy: cite the article at wikipedia\.org/],
  ])('is refused where it will not last or is not the publisher: %s', (url, why) => {
    expect(sourceFormProblem({ publisher: 'A publisher', url })).toMatch(why);
  });

  it('is refused when it names encyclopedia text on another host than wikipedia.org', () => {
    const at = (publisher: string) =>
      sourceFormProblem({
        publisher,
        url: 'https://asp.net.example/travel/destination.aspx?city=X',
      });
    expect(at('ASP.NET.PH travel guide (encyclopedia text)')).toMatch(/wikipedia\.org itself/);
    expect(at('Wikipedia')).toMatch(/wikipedia\.org itself/);
    expect(at('Wikipédia')).toMatch(/wikipedia\.org itself/);
    expect(at('The Canadian Encyclopedia')).toBeNull();
  });

  it('refused in the data is an error naming the file, the record and the field', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      const fact = facts.toronto?.[0];
      if (fact) fact.source.url = 'https://amp.cbc.ca/news/canada/toronto/x-1.1';
      const other = facts.ottawa?.[0];
      if (other) other.source = { publisher: 'Wikipedia', url: 'https://wikisite.example/Ottawa' };
    });
    const issues = await dataIssues(data);
    const at = (field: string) =>
      issues.find((i) => i.file.endsWith('local-facts.json') && i.field === field);
    expect(at('toronto.0.source.url')?.message).toMatch(/AMP copy/);
    expect(at('ottawa.0.source.url')?.message).toMatch(/wikipedia\.org itself/);
  });
});

describe('the bundled sources', () => {
  it('are many, and none is on http://, AMP, an internal, test, IP or malformed host, a listing page or a copy', () => {
    expect(bundled.length).toBeGreaterThan(1000);
    expect(bundled.filter((s) => s.url.startsWith('http://'))).toEqual([]);
    expect(bundled.filter((s) => sourceFormProblem(s) !== null)).toEqual([]);
    // Encyclopedia text is cited at wikipedia.org, as "Wikipedia".
    for (const s of bundled.filter((x) => /wikipedia\.org\//.test(x.url)))
      expect(s.publisher).toMatch(/^Wikip[eé]dia/);
  });
});
