import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { slugify } from '../src/site/slug.js';

/**
 * Edits of a data folder that keep it valid, one for each kind of field a page may show: a
 * city's every field, its areas, a city added or removed, the site settings, the national entry,
 * each content file, the blog's posts. `n` makes names and texts new each time, so no edit
 * collides with an earlier one (areas, slugs and descriptions must be unique).
 */
export type Edit = (dir: string, n: number) => Promise<string>;

const CITY_FILES = ['on', 'bc', 'yt'] as const;

async function json<T>(dir: string, rel: string, change: (value: T) => void): Promise<void> {
  const file = path.join(dir, rel);
  const value = JSON.parse(await readFile(file, 'utf8')) as T;
  change(value);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

interface CityRecord {
  id: string;
  name: string;
  slug: string;
  provinceCode: string;
  population: number;
  coordinates: { lat: number; lng: number };
  incorporationDate: string;
  description: string;
  areas: Array<string | { name: string; description: string; source: object }>;
}

const areaName = (a: CityRecord['areas'][number]) => (typeof a === 'string' ? a : a.name);

/** An edit of one city of one province's file, chosen by `pick`. */
const cityEdit =
  (what: string, change: (c: CityRecord, n: number) => void): ((pick: number) => Edit) =>
  (pick) =>
  async (dir, n) => {
    const code = CITY_FILES[pick % CITY_FILES.length] ?? 'on';
    let name = '';
    let slugs: [string, string] | null = null;
    await json<CityRecord[]>(dir, `cities/${code}.json`, (cities) => {
      const city = cities[pick % cities.length];
      if (!city) return;
      name = city.name;
      const before = city.slug;
      change(city, n);
      if (city.slug !== before) slugs = [before, city.slug];
    });
    // A city's slug is how the catastrophes that struck it and its local facts name it: a new
    // one follows there.
    if (slugs) await renameInFacts(dir, ...(slugs as [string, string]));
    return `${what} of ${name || `a city in ${code}`}`;
  };

async function renameInFacts(dir: string, from: string, to: string | null): Promise<void> {
  await json<Array<{ cities: string[] }>>(dir, 'catastrophes.json', (list) => {
    for (const c of list)
      c.cities = c.cities.flatMap((slug) => (slug === from ? (to ? [to] : []) : [slug]));
  });
  const local = await localFacts(dir);
  const facts = local[from];
  if (!facts) return;
  delete local[from];
  if (to) local[to] = facts;
  await writeFile(path.join(dir, 'local-facts.json'), `${JSON.stringify(local, null, 2)}\n`);
}

type LocalFacts = Record<string, Array<Record<string, unknown>>>;

/** The data's local facts by city slug (a data set may have none: the file is optional). */
const localFacts = (dir: string): Promise<LocalFacts> =>
  readFile(path.join(dir, 'local-facts.json'), 'utf8').then(
    (text) => JSON.parse(text) as LocalFacts,
    () => ({}),
  );

const renamed = (c: CityRecord, name: string) => {
  c.name = name;
  c.slug = slugify(name);
  c.id = `${c.provinceCode.toLowerCase()}-${c.slug}`;
};

export const CITY_EDITS = {
  population: cityEdit('population', (c, n) => {
    c.population = 1000 + ((c.population * 7 + n * 7919) % 3_000_000);
  }),
  coordinates: cityEdit('coordinates', (c, n) => {
    c.coordinates = {
      lat: Math.min(83, Math.max(42, c.coordinates.lat + ((n % 7) - 3) * 0.9)),
      lng: Math.min(-53, Math.max(-141, c.coordinates.lng + ((n % 5) - 2) * 1.7)),
    };
  }),
  description: cityEdit('description', (c, n) => {
    c.description = `${c.name} edited ${n}: ice storms and spring floods test its roofs.`;
  }),
  incorporationDate: cityEdit('incorporation date', (c, n) => {
    c.incorporationDate = String(1800 + (n % 200));
  }),
  name: cityEdit('name', (c, n) => renamed(c, `${c.name.split(' ')[0]} Renamed ${n}`)),
  areaAdded: cityEdit('area added', (c, n) => {
    c.areas.push(`New Quarter ${n}`);
  }),
  areaRenamed: cityEdit('area renamed', (c, n) => {
    c.areas[n % c.areas.length] = `Old Town ${n}`;
  }),
  areaRemoved: cityEdit('area removed', (c, n) => {
    if (c.areas.length > 1) c.areas.splice(n % c.areas.length, 1);
  }),
  areasReordered: cityEdit('areas reordered', (c) => {
    c.areas.reverse();
  }),
  // An area given a description of its own becomes a page search engines index, and back.
  areaDescribed: cityEdit('area described', (c, n) => {
    const i = n % c.areas.length;
    const area = c.areas[i];
    if (area === undefined) return;
    c.areas[i] =
      typeof area === 'string' || n % 3 === 0
        ? {
            name: areaName(area),
            description: `${areaName(area)} described for test ${n}: old trees over older roofs.`,
            source: { publisher: 'A test', url: `https://example.com/areas/${n}` },
          }
        : area.name;
  }),
};

export const cityAdded =
  (pick: number): Edit =>
  async (dir, n) => {
    const code = CITY_FILES[pick % CITY_FILES.length] ?? 'on';
    const province = { on: 'Ontario', bc: 'British Columbia', yt: 'Yukon' }[code];
    const name = `Newtown ${n}`;
    await json<CityRecord[]>(dir, `cities/${code}.json`, (cities) => {
      cities.push({
        id: `${code}-${slugify(name)}`,
        name,
        slug: slugify(name),
        province,
        provinceCode: code.toUpperCase(),
        population: 5000 + n * 13,
        coordinates: { lat: 50 + (n % 10) * 0.5, lng: -100 - (n % 20) },
        incorporationDate: '1901',
        description: `${name} is a town made for a test ${n}. Hail and spring runoff are its risks.`,
        areas: [`Centre ${n}`],
      } as CityRecord & { province: string });
    });
    return `${name} added to ${code}`;
  };

export const cityRemoved =
  (pick: number): Edit =>
  async (dir) => {
    const code = CITY_FILES[pick % CITY_FILES.length] ?? 'on';
    let name = 'nothing';
    let slug: string | null = null;
    await json<CityRecord[]>(dir, `cities/${code}.json`, (cities) => {
      if (cities.length <= 1) return;
      const removed = cities.splice(pick % cities.length, 1)[0];
      name = removed?.name ?? name;
      slug = removed?.slug ?? null;
    });
    if (slug) await renameInFacts(dir, slug, null);
    return `${name} removed from ${code}`;
  };

/** Themes that pass the contrast checks, in turn. */
const THEMES = [
  { colors: { primary: '#1d4d2b', accent: '#b5179e' }, font: 'source-sans-3' },
  { colors: { primary: '#6b0f1a', accent: '#f2b705' }, font: 'system' },
  { colors: { primary: '#0b3b60', accent: '#6bd66b' }, font: 'merriweather' },
];

export const SETTINGS_EDITS: Record<string, (n: number) => Record<string, unknown>> = {
  siteName: (n) => ({ siteName: `Harbour Claims ${n}` }),
  phone: (n) => ({ phone: `1-888-555-${String(1000 + (n % 9000)).slice(-4)}` }),
  email: (n) => ({ email: `help${n}@claimright.ca` }),
  privacyEmail: (n) => ({ privacyEmail: `privacy${n}@claimright.ca` }),
  officeHours: (n) => ({ officeHours: `Mon-Fri 9am-${(n % 4) + 5}pm EST` }),
  emergencyHours: (n) => ({ emergencyHours: n % 2 ? '24/7' : 'Every day, day and night' }),
  baseUrl: (n) => ({ baseUrl: `https://claims${n}.example.ca` }),
  // Served from a folder: every link of every page changes.
  baseUrlFolder: (n) => ({ baseUrl: `https://owner${n}.github.io/claims${n}/` }),
  theme: (n) => ({ theme: THEMES[n % THEMES.length] }),
  leadEndpoint: (n) => ({ leadEndpoint: `/api/lead-${n}` }),
  analyticsId: (n) => ({ analyticsId: `G-TEST${1000 + n}` }),
};

export const settingsEdit =
  (field: string): Edit =>
  async (dir, n) => {
    await json<Record<string, unknown>>(dir, 'site.json', (s) => {
      Object.assign(s, SETTINGS_EDITS[field]?.(n));
    });
    return `site.json ${field}`;
  };

export const nationalEdit =
  (field: 'description' | 'population'): Edit =>
  async (dir, n) => {
    await json<{ description: string; population: number }>(dir, 'national.json', (c) => {
      if (field === 'population') c.population = 38_000_000 + n;
      else c.description = `Canada, edited ${n}: floods, fires and storms from coast to coast.`;
    });
    return `national.json ${field}`;
  };

/** One field of each content file, at a place `pick` chooses. */
export const CONTENT_EDITS: Record<string, (pick: number) => Edit> = {
  testimonial: (pick) => async (dir, n) => {
    await json<
      Array<{ text: string; name: string; insurerOffer: number; finalSettlement: number }>
    >(dir, 'content/testimonials.json', (list) => {
      const t = list[pick % list.length];
      if (!t) return;
      if (pick % 3 === 0) t.text = `Edited testimonial ${n}: they doubled the insurer's offer.`;
      else if (pick % 3 === 1) t.name = `Client ${n}`;
      else t.finalSettlement = t.insurerOffer + 1000 + n;
    });
    return 'a testimonial';
  },
  faq: (pick) => async (dir, n) => {
    await json<{ groups: Array<{ title: string; items: Array<{ answer: string }> }> }>(
      dir,
      'content/faq.json',
      (faq) => {
        const group = faq.groups[pick % faq.groups.length];
        const item = group?.items[pick % group.items.length];
        if (item) item.answer = `An answer edited ${n}.`;
        if (group && pick % 2) group.title = `Questions ${n}`;
      },
    );
    return 'an FAQ answer';
  },
  cityFaq: (pick) => async (dir, n) => {
    await json<Array<{ question: string }>>(dir, 'content/city-faq.json', (list) => {
      const q = list[pick % list.length];
      if (q) q.question = `What changed in {city} (${n})?`;
    });
    return 'a city FAQ question';
  },
  services: (pick) => async (dir, n) => {
    await json<{
      types: Array<{ features: string[]; faqs: Array<{ answer: string }> }>;
      cards: Array<{ description: string }>;
    }>(dir, 'content/services.json', (s) => {
      const type = s.types[pick % s.types.length];
      if (type && pick % 3 === 0) type.features[0] = `A feature edited ${n}`;
      if (type && pick % 3 === 1 && type.faqs[0]) type.faqs[0].answer = `Edited ${n}.`;
      const card = s.cards[pick % s.cards.length];
      if (card && pick % 3 === 2) card.description = `A card edited ${n}.`;
    });
    return 'a service type or card';
  },
  process: (pick) => async (dir, n) => {
    const lists = ['howItWorks', 'claimProcess', 'aboutProcess'] as const;
    await json<Record<string, Array<{ title: string }>>>(dir, 'content/process.json', (p) => {
      const list = p[lists[pick % lists.length] ?? 'howItWorks'] ?? [];
      const step = list[pick % list.length];
      if (step) step.title = `Step edited ${n}`;
    });
    return 'a process step';
  },
  about: (pick) => async (dir, n) => {
    const lists = ['serviceTypes', 'reasons', 'badges'] as const;
    await json<Record<string, Array<{ description: string }>>>(dir, 'content/about.json', (a) => {
      const list = a[lists[pick % lists.length] ?? 'badges'] ?? [];
      const item = list[pick % list.length];
      if (item) item.description = `Edited ${n}.`;
    });
    return 'an About text';
  },
  provinces: (pick) => async (dir, n) => {
    await json<{
      national: { complaints: Array<{ text: string }> };
      provinces: Array<{ regulator: { text: string }; facts: Array<{ text: string }> }>;
    }>(dir, 'provinces.json', (p) => {
      const province = p.provinces[pick % p.provinces.length];
      if (pick % 3 === 0 && province) province.regulator.text = `A regulator edited ${n}.`;
      else if (pick % 3 === 1 && province)
        province.facts.push({
          text: `A fact added ${n}.`,
          source: { publisher: 'A test', url: `https://example.com/facts/${n}` },
        } as { text: string });
      else if (p.national.complaints[0]) p.national.complaints[0].text = `A service edited ${n}.`;
    });
    return 'province facts';
  },
  catastrophes: (pick) => async (dir, n) => {
    await json<Array<{ insuredDamage: string; cities: string[] }>>(
      dir,
      'catastrophes.json',
      (list) => {
        const c = list[pick % list.length];
        if (!c) return;
        if (pick % 2 === 0) c.insuredDamage = `$${n} million`;
        else c.cities = [];
      },
    );
    return 'a catastrophe';
  },
  localFacts: (pick) => async (dir, n) => {
    // A city's local facts added to, replaced or taken away: its page says more or less, and
    // whether search engines index it (and where its pages point) may change with them.
    const code = CITY_FILES[pick % CITY_FILES.length] ?? 'on';
    const cities = JSON.parse(
      await readFile(path.join(dir, `cities/${code}.json`), 'utf8'),
    ) as CityRecord[];
    const city = cities[pick % cities.length];
    if (!city) return 'no local facts';
    const local = await localFacts(dir);
    const fact = {
      topic: 'risk',
      text: `A local fact about basement flooding written for test ${n}.`,
      source: { publisher: 'A test', url: `https://example.com/local/${n}` },
      asOf: '2026',
      checked: '2026-11-27',
    };
    const kind = pick % 3;
    if (kind === 2 && local[city.slug]) delete local[city.slug];
    else if (kind === 1 && local[city.slug]) local[city.slug] = [fact];
    else local[city.slug] = [...(local[city.slug] ?? []), fact];
    await writeFile(path.join(dir, 'local-facts.json'), `${JSON.stringify(local, null, 2)}\n`);
    return `local facts of ${city.name}`;
  },
  legal: (pick) => async (dir, n) => {
    const file = path.join(dir, 'pages', pick % 2 ? 'privacy.md' : 'terms.md');
    await writeFile(file, `${await readFile(file, 'utf8')}\nA paragraph added ${n}.\n`);
    return 'a legal page';
  },
};

/** A blog post edited, added or removed (never the last one). */
export const postEdit =
  (pick: number): Edit =>
  async (dir, n) => {
    const posts = path.join(dir, 'posts');
    const names = (await readdir(posts)).filter((f) => f.endsWith('.md')).sort();
    const kind = pick % 3;
    if (kind === 0 || names.length === 1) {
      const source = await readFile(path.join(posts, names[0] ?? ''), 'utf8');
      await writeFile(
        path.join(posts, `written-${n}.md`),
        source
          .replace(/^title: .*$/m, `title: A Post Written for Test ${n}`)
          .replace(
            /^description: .*$/m,
            `description: A post the tests wrote, number ${n}, to see every page that lists posts change.`,
          ),
      );
      return `post written-${n} added`;
    }
    const name = names[pick % names.length] ?? '';
    if (kind === 1) {
      const file = path.join(posts, name);
      await writeFile(file, `${await readFile(file, 'utf8')}\nA closing line written ${n}.\n`);
      return `post ${name} edited`;
    }
    await rm(path.join(posts, name));
    return `post ${name} removed`;
  };

/** Every kind of edit once, for the test that goes through them all. */
export function everyEdit(): Array<[string, Edit]> {
  return [
    ...Object.entries(CITY_EDITS).flatMap(([name, e]) =>
      [0, 1, 2].map((pick) => [`city ${name} ${pick}`, e(pick)] as [string, Edit]),
    ),
    ['city added', cityAdded(1)],
    ['city removed', cityRemoved(0)],
    ...Object.keys(SETTINGS_EDITS).map((f) => [`settings ${f}`, settingsEdit(f)] as [string, Edit]),
    ['national description', nationalEdit('description')],
    ['national population', nationalEdit('population')],
    ...Object.entries(CONTENT_EDITS).flatMap(([name, e]) =>
      [0, 1, 2].map((pick) => [`content ${name} ${pick}`, e(pick)] as [string, Edit]),
    ),
    ['post added', postEdit(0)],
    ['post edited', postEdit(1)],
  ];
}

/** Any edit at all, for the random ones: the kind and where are the caller's (fast-check's). */
export function editOf(kind: number, pick: number): Edit {
  const all: Array<(pick: number) => Edit> = [
    ...Object.values(CITY_EDITS),
    cityAdded,
    cityRemoved,
    ...Object.keys(SETTINGS_EDITS).map((f) => () => settingsEdit(f)),
    () => nationalEdit('description'),
    () => nationalEdit('population'),
    ...Object.values(CONTENT_EDITS),
    postEdit,
  ];
  return (all[kind % all.length] as (pick: number) => Edit)(pick);
}
