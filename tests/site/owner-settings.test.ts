import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError, type DataIssue, formatIssue } from '../../src/site/errors.js';
import { loadSite } from '../../src/site/load.js';
import { BUNDLED_DATA, dataCopy, editJson, FIXTURE_DATA, runCli, scanTree } from '../helpers.js';

type Settings = Record<string, unknown>;

/** What loading a copy of the fixture data says once site.json is edited (and the rest set up). */
async function issuesWith(
  change: (s: Settings) => void,
  setup: (dir: string) => Promise<void> = async () => {},
  publicDir?: string,
): Promise<DataIssue[]> {
  const { dir, data } = await dataCopy(FIXTURE_DATA);
  await editJson(data, 'site.json', change);
  await setup(dir);
  try {
    await loadSite(data, { publicDir: publicDir && path.join(dir, publicDir) });
    return [];
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    return err.issues;
  }
}

/** The one issue of site.json's field, as the CLI prints it. */
async function refused(change: (s: Settings) => void, field: string): Promise<string> {
  const issues = await issuesWith(change);
  const mine = issues.filter((i) => i.field === field);
  expect(mine, JSON.stringify(issues)).toHaveLength(1);
  expect(mine[0]?.file).toMatch(/site\.json$/);
  return formatIssue(mine[0] as DataIssue);
}

describe("an owner's values in site.json, each refused with the file, the field, the value and what to do", () => {
  it.each([
    [
      '416-555-0123 glued to text',
      'call us anytime',
      /"call us anytime" is not a phone number: write it as 416-555-0123/,
    ],
    ['a number abroad', '+44 20 7946 0958', /"\+44 20 7946 0958" is not a North American number/],
    ['no such area code', '123-456-7890', /"123-456-7890" is not a valid North American number/],
  ])('a phone number: %s', async (_, phone, message) => {
    expect(await refused((s) => Object.assign(s, { phone }), 'phone')).toMatch(message);
  });

  it('a colour that is not one (#1a5e2 shipped once)', async () => {
    const line = await refused(
      (s) => Object.assign(s, { theme: { colors: { primary: '#1a5e2' } } }),
      'theme.colors.primary',
    );
    expect(line).toMatch(
      /site\.json, field theme\.colors\.primary: "#1a5e2" is not a colour: write it as # and six hexadecimal digits/,
    );
  });

  it('a primary colour white text does not read on, with the ratio and a colour that would do', async () => {
    const line = await refused(
      (s) => Object.assign(s, { theme: { colors: { primary: '#3b82f6' } } }),
      'theme.colors.primary',
    );
    expect(line).toMatch(
      /field theme\.colors\.primary: "#3b82f6" and white have a contrast of 3\.68:1, below the 4\.5:1 .* choose a darker colour, such as #[0-9a-f]{6}$/,
    );
  });

  it('an accent no button text reads on, with the pair and the ratio', async () => {
    const line = await refused(
      (s) => Object.assign(s, { theme: { colors: { accent: '#808080' } } }),
      'theme.colors.accent',
    );
    expect(line).toMatch(
      /"#808080" has a contrast of 3\.9\d:1 with its button text \(near-black #1b2430\)/,
    );
  });

  it('a font that is not bundled, with the choices', async () => {
    const line = await refused(
      (s) => Object.assign(s, { theme: { font: 'comic-sans' } }),
      'theme.font',
    );
    expect(line).toMatch(/"comic-sans" is not a bundled font: choose one of system, inter, /);
  });

  it.each([
    [
      'a file name',
      'https://x.ca/index.html',
      /must not name a file \("index\.html"\): use https:\/\/x\.ca\//,
    ],
    [
      'a fragment',
      'https://x.ca/#top',
      /must not have a fragment \("#top"\): use https:\/\/x\.ca\//,
    ],
    ['a query', 'https://x.ca/?x=1', /must not have a query \("\?x=1"\): use https:\/\/x\.ca\//],
    [
      'a folder without its slash',
      'https://user.github.io/myrepo',
      /must end in "\/" when it has a path.*use https:\/\/user\.github\.io\/myrepo\//,
    ],
    ['not http', 'ftp://x.ca/', /must be an absolute http\(s\) URL/],
  ])('a site URL with %s', async (_, baseUrl, message) => {
    expect(await refused((s) => Object.assign(s, { baseUrl }), 'baseUrl')).toMatch(message);
  });

  it('accepts an origin, or an origin and the folder it is served from', async () => {
    for (const baseUrl of ['https://x.ca', 'https://x.ca/', 'https://user.github.io/myrepo/'])
      expect(await issuesWith((s) => Object.assign(s, { baseUrl })), baseUrl).toEqual([]);
  });

  it('a site URL given on the command line is checked the same way, and named where it came from', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    const r = runCli(['validate', '--data', data], {
      env: { SITE_URL: 'https://x.ca/index.html' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'SITE_URL: "https://x.ca/index.html" must not name a file ("index.html"): use https://x.ca/',
    );
  });

  it('a logo that is not in the public folder, not a picture, or not there', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000078000000280806000000', 'hex');
    const logo = (value: string, files: Record<string, string | Buffer> = {}) =>
      issuesWith(
        (s) => Object.assign(s, { logo: value }),
        async (dir) => {
          for (const [rel, bytes] of Object.entries(files)) {
            await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
            await writeFile(path.join(dir, rel), bytes);
          }
        },
        'public',
      );
    const line = async (value: string, files?: Record<string, string | Buffer>) =>
      (await logo(value, files)).filter((i) => i.field === 'logo').map(formatIssue);
    expect(await line('brand/logo.svg')).toEqual([
      expect.stringMatching(
        /field logo: "brand\/logo\.svg" must be the path of an SVG or PNG file in the public folder, such as \/brand\/logo\.svg \(the file public\/brand\/logo\.svg\)/,
      ),
    ]);
    expect(await line('public/../data/site.json')).toHaveLength(1);
    expect(await line('/../data/logo.svg')).toHaveLength(1);
    expect(await line('//example.com/logo.svg')).toHaveLength(1);
    expect(await line('public/brand/logo.gif')).toHaveLength(1);
    expect(await line('public/brand/logo.svg')).toEqual([
      expect.stringMatching(/"public\/brand\/logo\.svg": no such file in the public folder/),
    ]);
    expect(await line('public/logo.png', { 'public/logo.png': 'GIF89a, not a PNG' })).toEqual([
      expect.stringMatching(/"public\/logo\.png" is not a PNG file/),
    ]);
    expect(
      await line('public/logo.svg', {
        'public/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>',
      }),
    ).toEqual([expect.stringMatching(/has neither a viewBox nor a width and height/)]);
    // And one that is right: its size is read for the page to keep its room.
    expect(await logo('public/brand/logo.png', { 'public/brand/logo.png': png })).toEqual([]);
    // The site's path, as photos are named, is the same file.
    expect(await logo('/brand/logo.png', { 'public/brand/logo.png': png })).toEqual([]);
    const { dir, data } = await dataCopy(FIXTURE_DATA);
    await mkdir(path.join(dir, 'public/brand'), { recursive: true });
    await writeFile(path.join(dir, 'public/brand/logo.png'), png);
    await editJson(data, 'site.json', (s: Settings) =>
      Object.assign(s, { logo: 'public/brand/logo.png' }),
    );
    const site = await loadSite(data, { publicDir: path.join(dir, 'public') });
    expect(site.logo).toMatchObject({
      path: '/brand/logo.png',
      width: 120,
      height: 40,
      type: 'image/png',
    });
  });

  it('a failed build leaves the last output as it was, and exits non-zero naming the field', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    expect(runCli(['generate', '--data', data, '--out', out, '--no-audit', '--quiet']).code).toBe(
      0,
    );
    const before = await scanTree(out);
    await editJson(data, 'site.json', (s: Settings) =>
      Object.assign(s, { phone: '416-555-0123 or 0124', theme: { colors: { accent: '#808080' } } }),
    );
    const r = runCli(['generate', '--data', data, '--out', out, '--no-audit']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/site\.json, field phone: "416-555-0123 or 0124"/);
    expect(r.stderr).toMatch(/site\.json, field theme\.colors\.accent: "#808080" has a contrast/);
    expect(await scanTree(out)).toEqual(before);
  });
});

describe('contact details typed into content rather than their placeholders', () => {
  /** A Markdown content file with a paragraph of `text` added at its end, and its line. */
  const typedIn = async (rel: string, text: string, settings: (s: Settings) => void = () => {}) => {
    const { data } = await dataCopy(FIXTURE_DATA);
    const file = path.join(data, rel);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    lines.push('', text, '');
    await writeFile(file, lines.join('\n'));
    const issues = await issuesOf(data, settings);
    return { issues: issues.map(formatIssue), line: lines.length - 1 };
  };
  const issuesOf = async (data: string, settings: (s: Settings) => void) => {
    await editJson(data, 'site.json', settings);
    try {
      await loadSite(data);
      return [];
    } catch (err) {
      if (!(err instanceof DataError)) throw err;
      return err.issues;
    }
  };

  it('the bundled number, in any form, names the file and the line and the placeholder to use', async () => {
    for (const written of ['1-888-339-9809', '(888) 339-9809', '1\u00a0888\u00a0339-9809']) {
      const { issues, line } = await typedIn('pages/privacy.md', `Call us on ${written} any time.`);
      expect(issues, written).toEqual([
        expect.stringMatching(
          new RegExp(
            `pages/privacy\\.md, line ${line}: types in the phone number ".+": write \\{phone\\} instead, which the build fills from site\\.json`,
          ),
        ),
      ]);
    }
  });

  it("the owner's own number, addresses and name as well as the bundled ones", async () => {
    const owner = (s: Settings) =>
      Object.assign(s, {
        siteName: 'Harbour Loss Advocates',
        phone: '(416) 555-0123',
        email: 'hello@harbourloss.ca',
        privacyEmail: 'privacy@harbourloss.ca',
      });
    const cases: Array<[string, string]> = [
      ['Call 416-555-0123.', 'phone'],
      ['Write to hello@harbourloss.ca.', 'email'],
      ['Write to privacy@harbourloss.ca.', 'privacyEmail'],
      ['Harbour Loss Advocates helps you.', 'siteName'],
      ['Write to help@claimright.ca.', 'email'],
      ['ClaimRight Canada helps you.', 'siteName'],
      ['See www.claimright.ca for more.', 'siteName'],
    ];
    for (const [text, placeholder] of cases) {
      const { issues } = await typedIn('posts/public-adjuster-fees-explained.md', text, owner);
      expect(issues, text).toEqual([expect.stringContaining(`write {${placeholder}} instead`)]);
    }
  });

  it("may stand in any text of a language's catalogue, filled as that language writes them", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    const eyebrow = (lang: string, text: string) =>
      editJson(data, `i18n/${lang}.json`, (c: { strings: { home: { eyebrow: string } } }) => {
        c.strings.home.eyebrow = text;
      });
    await eyebrow('en', '{siteName}: call {phone}');
    await eyebrow('fr', '{siteName} : composez le {phone}');
    const site = await loadSite(data);
    expect(site.t.home.eyebrow).toBe('ClaimRight Canada: call 1-888-339-9809');
    expect(site.languages.get('fr')?.t.home.eyebrow).toBe(
      'ClaimRight Canada : composez le 1\u00a0888\u00a0339-9809',
    );
    // Where the templates fill the number themselves (a link there), it is left for them.
    expect(site.t.layout.callBarCall).toBe('Call {phone}');
  });

  it('are not found in the bundled content, which uses the placeholders', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    expect(await issuesOf(data, () => {})).toEqual([]);
  });
});
