import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/site/load.js';
import { readJsonRecords } from '../../src/site/read.js';
import { RecordDigests } from '../../src/site/record-bytes.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';

const sha = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The digests of `text`, fed to RecordDigests in pieces of `size` bytes. */
function digestsOf(text: string, count: number, size: number): string[] | null {
  const bytes = Buffer.from(text);
  const digests = new RecordDigests();
  for (let at = 0; at < bytes.length; at += size) digests.write(bytes.subarray(at, at + size));
  return digests.end(count);
}

/** Strings that test a scanner: quotes, backslashes, brackets, spaces, characters of 2-4 bytes. */
const tricky = fc.oneof(
  fc.string({
    unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ' ', '\n', 'a', 'é', '😀'),
  }),
  fc.string({ unit: 'grapheme' }),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const records = fc.array(fc.dictionary(tricky, value, { maxKeys: 6 }), { maxLength: 6 });

describe('record digests', () => {
  it("are each record's tokens, in any layout and read in pieces of any size", () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1, max: 40 }), (recs, size) => {
        const expected = recs.map((r) => sha(JSON.stringify(r)));
        const layouts = [
          JSON.stringify(recs),
          JSON.stringify(recs, null, 2),
          JSON.stringify(recs, null, '\t'),
          // Line breaks as Windows editors write them: JSON escapes those in strings.
          JSON.stringify(recs, null, 4).replace(/\n/g, '\r\n'),
        ];
        for (const text of layouts) expect(digestsOf(text, recs.length, size)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('change with any byte of the record inside a string, and with nothing outside it', () => {
    const recs = [{ name: 'Granby', note: 'a "b" \\' }, { name: 'Laval' }];
    const base = digestsOf(JSON.stringify(recs, null, 2), 2, 7) as string[];
    const edited = digestsOf(
      JSON.stringify([{ name: 'Granby', note: 'a "b"  \\' }, recs[1]], null, 2),
      2,
      7,
    );
    expect(edited?.[0]).not.toBe(base[0]);
    expect(edited?.[1]).toBe(base[1]);
    // A space in a string is the record's own; between tokens it is layout.
    expect(
      digestsOf('[{"name":"Granby","note":"a \\"b\\" \\\\"} ,\n{ "name" : "Laval" }]', 2, 3),
    ).toEqual(base);
  });

  it('are none where the bytes are not an array of objects, or not as many as JSON.parse found', () => {
    for (const text of [
      '{"a":1}',
      '["a",{"b":1}]',
      '[1,{"b":2}]',
      '[[{"a":1}]]',
      '"x"',
      '[{"a":1}',
    ])
      expect(digestsOf(text, 1, 4), text).toBeNull();
    expect(digestsOf('[{"a":1},{"a":2}]', 1, 4)).toBeNull();
    expect(digestsOf('[]', 0, 4)).toEqual([]);
  });

  it('come with the file read in pieces: characters of several bytes across every piece boundary', async () => {
    const file = path.join(await tempDir(), 'cities.json');
    // 300 KB: several of readJsonRecords' 64 KB pieces, each boundary falling in some character.
    const recs = Array.from({ length: 1200 }, (_, i) => ({
      name: `Ville ${i}`,
      text: 'é😀’'.repeat(20 + (i % 7)),
    }));
    await writeFile(file, JSON.stringify(recs, null, 2));
    const read = readJsonRecords(file, (f) => f, []);
    expect(read?.value).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    expect(read?.digests).toEqual(recs.map((r) => sha(JSON.stringify(r))));
  });

  it('stand for each city the data loaded', async () => {
    const site = await loadSite(FIXTURE_DATA);
    const dir = path.join(FIXTURE_DATA, 'cities');
    const records = new Map<string, unknown>();
    for (const name of await readdir(dir))
      if (name.endsWith('.json'))
        for (const rec of JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Array<{
          slug: string;
        }>)
          records.set(rec.slug, rec);
    expect(site.cities.length).toBeGreaterThan(0);
    for (const city of site.cities)
      expect(site.recordDigests.get(city), city.slug).toBe(
        sha(JSON.stringify(records.get(city.slug))),
      );
    // The national entry and another language's cities are made from more than a record.
    expect(site.recordDigests.has(site.national)).toBe(false);
    const fr = site.languages.get('fr');
    for (const city of fr?.cities ?? []) expect(site.recordDigests.has(city)).toBe(false);
  });
});
