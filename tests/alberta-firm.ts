import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { drawn } from './photo-files.js';

/**
 * A firm licensed in Alberta only, as its owner makes the bundled data set theirs with settings
 * and content alone (issue 44): its service area, its identity, its licence, two adjusters (one
 * with a photo), its brand (colours, font, an SVG logo with lettering), and no sample left:
 * testimonials and figures it cannot yet back with real ones are left out rather than kept.
 * Every name, number and address here is made up for the tests (555-01xx numbers, an .example
 * domain).
 */
export const ALBERTA_FIRM = {
  siteName: 'Prairie Claim Advocates',
  legalName: 'Prairie Claim Advocates Ltd.',
  phone: '403-555-0142 ext. 7',
  licence: { province: 'AB', issuedBy: 'Alberta Insurance Council', number: 'AIC-4417-2208' },
  adjusters: ['Dana Whitford', 'Marc Ouellet'],
  /** The cities each adjuster serves, by slug. */
  adjusterCities: [
    ['calgary', 'airdrie', 'okotoks'],
    ['edmonton', 'st-albert'],
  ],
} as const;

/** The Alberta firm's data/site.json: settings only, every field its own. */
export function albertaSettings(): Record<string, unknown> {
  const f = ALBERTA_FIRM;
  return {
    siteName: f.siteName,
    baseUrl: 'https://www.prairie-claims.example',
    phone: f.phone,
    email: 'help@prairie-claims.example',
    privacyEmail: 'privacy@prairie-claims.example',
    officeHours: 'Mon-Fri 8:30am-5pm MST',
    emergencyHours: '24/7',
    leadEndpoint: '/api/lead',
    serviceArea: { provinces: ['AB'] },
    business: {
      legalName: f.legalName,
      address: {
        street: '200-1010 8 Avenue SW',
        city: 'Calgary',
        province: 'AB',
        postalCode: 'T2P 1J2',
      },
      licences: [f.licence],
      founded: 2011,
      adjusters: [
        {
          name: f.adjusters[0],
          title: 'Licensed public adjuster',
          photo: '/images/dana.jpg',
          licences: [f.licence],
          cities: f.adjusterCities[0],
        },
        {
          name: f.adjusters[1],
          title: 'Licensed public adjuster',
          licences: [{ ...f.licence, number: 'AIC-5120-9931' }],
          cities: f.adjusterCities[1],
        },
      ],
    },
    theme: { colors: { primary: '#1f4d2c', accent: '#e8b53a' }, font: 'inter' },
    logo: '/brand/logo.svg',
  };
}

/** The logo: an SVG whose name is lettering (`<text>`), which share images must draw. */
export const ALBERTA_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 64" width="320" height="64"><rect width="64" height="64" rx="10" fill="#1f4d2c"/><path d="M12 44 L32 16 L52 44 Z" fill="#e8b53a"/><text x="76" y="42" font-family="Inter, sans-serif" font-size="28" font-weight="700" fill="#1f4d2c">PRAIRIE CLAIMS</text></svg>\n`;

/**
 * Makes a copy of claimsite's data set in `site` (its data/ and public/) the Alberta firm's:
 * site.json as above, the logo and an adjuster's portrait under public/, and the content's
 * sample markers gone (the sample testimonials and figures left out, not relabelled).
 */
export async function makeAlbertaFirm(site: string): Promise<void> {
  const data = path.join(site, 'data');
  await writeJson(path.join(data, 'site.json'), albertaSettings());
  await mkdir(path.join(site, 'public/brand'), { recursive: true });
  await writeFile(path.join(site, 'public/brand/logo.svg'), ALBERTA_LOGO);
  await mkdir(path.join(site, 'public/images'), { recursive: true });
  await drawn(480, 480, 'TEST', '#1f4d2c').jpeg().toFile(path.join(site, 'public/images/dana.jpg'));
  await writeJson(path.join(data, 'content/testimonials.json'), []);
  for (const about of ['content/about.json', 'fr/content/about.json'])
    await editFile(path.join(data, about), (a: AboutFile) => {
      a.stats = a.stats.filter((s) => !s.sample);
      a.badges = a.badges.filter((b) => !b.sample);
    });
}

/**
 * Puts one sample marker back in the Alberta firm's data: the bundled "95% Success Rate" figure,
 * marked as the sample it is. Returns the file and field that name it.
 */
export async function putSampleFigureBack(site: string): Promise<{ file: string; field: string }> {
  await editFile(path.join(site, 'data/content/about.json'), (a: AboutFile) => {
    a.stats.unshift({ value: '95%', label: 'Success Rate', sample: true });
  });
  return { file: 'data/content/about.json', field: 'stats.0.sample' };
}

interface AboutFile {
  stats: Array<{ value: string; label: string; sample?: true }>;
  badges: Array<{ title: string; sample?: true }>;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function editFile<T>(file: string, change: (value: T) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8')) as T;
  change(value);
  await writeJson(file, value);
}
