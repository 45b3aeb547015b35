import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { validRecordsFile } from '../src/generate/valid-records.js';
import { DataError } from '../src/site/errors.js';
import { checkedRecords } from '../src/site/load.js';
import { type CityRecord, cityRecordOf, citySchema } from '../src/site/schema.js';
import { BUNDLED_DATA, dataCopy, FIXTURE_DATA, scanTree } from './helpers.js';

/** Every city record of a data folder, as its files hold them. */
function recordsOf(data: string): CityRecord[] {
  const dir = path.join(data, 'cities');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CityRecord[]);
}

/** The record with spaces around each string the schema trims or takes as a URL. */
function padded(
  rec: CityRecord,
  pad: (s: string) => string,
  url: (s: string) => string,
): CityRecord {
  const source = (s: { publisher: string; url: string }) => ({
    publisher: pad(s.publisher),
    url: url(s.url),
  });
  return {
    ...rec,
    id: pad(rec.id),
    name: pad(rec.name),
    slug: pad(rec.slug),
    description: pad(rec.description),
    ...(rec.descriptionSources && { descriptionSources: rec.descriptionSources.map(source) }),
    areas: rec.areas.map((a) =>
      typeof a === 'string'
        ? pad(a)
        : {
            ...a,
            name: pad(a.name),
            ...(a.description && { description: pad(a.description) }),
            source: source(a.source),
          },
    ),
    ...(rec.sources && {
      sources: Object.fromEntries(Object.entries(rec.sources).map(([k, s]) => [k, source(s)])),
    }),
  };
}

describe('city records found valid by an earlier build', () => {
  it('make the city zod makes of them: cityRecordOf equals zod, spaces and all', () => {
    const records = [...recordsOf(BUNDLED_DATA), ...recordsOf(FIXTURE_DATA)];
    expect(records.length).toBeGreaterThan(150);
    const space = fc.string({
      unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0'),
      maxLength: 3,
    });
    // A URL parser drops tabs and line breaks anywhere in a URL: zod takes such a URL.
    const breaks = fc.string({ unit: fc.constantFrom('\t', '\n', '\r'), maxLength: 2 });
    fc.assert(
      fc.property(
        fc.constantFrom(...records),
        space,
        space,
        breaks,
        (rec, before, after, inner) => {
          const pad = (s: string) => `${before}${s}${after}`;
          const raw = padded(rec, pad, (u) => pad(u.replace('://', `://${inner}`)));
          const checked = citySchema.safeParse(raw);
          // Spaces around a URL, and tabs and line breaks in it, zod takes and drops.
          expect(checked.success).toBe(true);
          expect(JSON.stringify(cityRecordOf(raw))).toBe(JSON.stringify(checked.data));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('are not checked again by the next build under the same code: only a changed record is', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    const cities = recordsOf(data).length;
    let before = checkedRecords.count;
    await generate(opts);
    expect(checkedRecords.count - before).toBe(cities);

    before = checkedRecords.count;
    const same = await generate(opts);
    expect(checkedRecords.count - before).toBe(0);
    expect(same.rendered).toBe(0);

    // One description edited: that record alone is checked, and its pages made again.
    const file = path.join(data, 'cities/bc.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"Vancouver is ', '"Vancouver, on the coast, is '));
    before = checkedRecords.count;
    const edited = await generate(opts);
    expect(checkedRecords.count - before).toBe(1);
    expect(edited.rendered).toBeGreaterThan(0);
    expect(await readFile(path.join(out, 'vancouver/index.html'), 'utf8')).toContain(
      'Vancouver, on the coast, is ',
    );

    // Under other code every record is checked again.
    before = checkedRecords.count;
    await generate({ ...opts, codeVersion: 'other' });
    expect(checkedRecords.count - before).toBe(cities);
  });

  it('do not let a record that changed into an invalid one through, and the output stays as it was', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    await generate(opts);
    const kept = readFileSync(validRecordsFile(out), 'utf8');
    const tree = await scanTree(out);
    const file = path.join(data, 'cities/bc.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"population": 662248', '"population": -662248'));
    const failed = await generate(opts).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(DataError);
    expect((failed as DataError).issues).toContainEqual(
      expect.objectContaining({ record: 'vancouver', field: 'population' }),
    );
    expect(await scanTree(out)).toEqual(tree);
    expect(readFileSync(validRecordsFile(out), 'utf8')).toBe(kept);
  });

  it('are checked again when the file is not ours or not whole, and a file not ours is left as it is', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    const cities = recordsOf(data).length;
    await generate(opts);
    for (const text of ['{"format":1,"code":"test","records":[', 'notes of my own\n']) {
      await writeFile(validRecordsFile(out), text);
      const before = checkedRecords.count;
      await generate(opts);
      expect(checkedRecords.count - before).toBe(cities);
      expect(await readFile(validRecordsFile(out), 'utf8')).toBe(text);
    }
  });
});
