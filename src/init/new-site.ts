import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { displayPath } from '../site/display-path.js';
import { slugify } from '../site/slug.js';
import { HOSTS, writeRecipes } from './recipes.js';

interface NewSiteOptions {
  /** The folder to make: one that does not exist, or an empty one. */
  dir: string;
  /** The data set to start from: claimsite's bundled one. */
  from: string;
  /** A minimal valid data set (one city) instead of the whole bundled one. */
  empty: boolean;
  /** What the site's package.json depends on for claimsite: an npm install spec. */
  claimsite: string;
  /** claimsite's recipes/ folder (each host's files) and its version. */
  recipes: string;
  version: string;
}

/**
 * Makes a site folder apart from claimsite: its own data, public files, package.json, README,
 * .gitignore and every host's files (recipes.ts), built by `claimsite generate` run inside it. It is written whole into a folder
 * beside the target and renamed into place, so nothing is ever written over: a folder that is
 * not empty is refused, and a failed init leaves nothing behind.
 */
export function writeNewSite(o: NewSiteOptions): void {
  const target = path.resolve(o.dir);
  refuseUnlessEmpty(target);
  mkdirSync(path.dirname(target), { recursive: true });
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.init-${process.pid}`);
  mkdirSync(staging);
  try {
    if (o.empty) writeMinimalData(o.from, path.join(staging, 'data'));
    else writeBundledData(o.from, path.join(staging, 'data'));
    mkdirSync(path.join(staging, 'public'));
    const name = slugify(path.basename(target)) || 'claimsite-site';
    writeFileSync(path.join(staging, 'package.json'), sitePackage(name, o.claimsite));
    writeFileSync(path.join(staging, 'README.md'), siteReadme(path.basename(target)));
    writeFileSync(path.join(staging, '.gitignore'), GITIGNORE);
    writeRecipes(staging, HOSTS, o.recipes, o.version);
    place(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

function refuseUnlessEmpty(target: string): void {
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return;
  if (!info.isDirectory() || readdirSync(target).length > 0)
    throw new Error(
      `${displayPath(target)} is not an empty folder: init makes a site only in a new or empty folder, and never writes over anything`,
    );
}

/**
 * The staged site renamed onto the target: POSIX replaces an empty folder and refuses one that
 * is not (if something was put there meanwhile, it stays); Windows renames onto no folder at all.
 */
function place(staging: string, target: string): void {
  try {
    renameSync(staging, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') refuseUnlessEmpty(target);
    if (code !== 'EPERM') throw err;
    rmdirSync(target); // only an empty folder: anything in it makes this fail
    renameSync(staging, target);
  }
}

/**
 * The bundled data set, but for its English words: without `i18n/en.json` a site uses claimsite's
 * own, which stay in step with its templates when claimsite is updated (a site that copies it in
 * to change a word keeps it up to date itself: `validate` names every key it lacks).
 */
function writeBundledData(from: string, to: string): void {
  const english = path.join(from, 'i18n', 'en.json');
  cpSync(from, to, {
    recursive: true,
    errorOnExist: true,
    force: false,
    filter: (f) => f !== english,
  });
}

/**
 * The least data that builds: the settings, the national entry, the bundled data's most populous
 * city in its province's file (an example of a record, with its sources), the content, the
 * legal pages and one post. No French, no province facts or catastrophes: each is optional, and
 * claimsite's own data (node_modules/claimsite/data) has them to copy from.
 */
function writeMinimalData(from: string, to: string): void {
  const copy = (rel: string) =>
    cpSync(path.join(from, rel), path.join(to, rel), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
  for (const rel of ['site.json', 'national.json', 'sources.json', 'content', 'pages']) copy(rel);
  copy(path.join('cities', 'README.md'));
  // One post, so that the blog has something of its own (an empty one is a thin page).
  const post = readdirSync(path.join(from, 'posts'))
    .filter((f) => f.endsWith('.md'))
    .sort()[0];
  if (post) copy(path.join('posts', post));
  const { file, record } = mostPopulousCity(path.join(from, 'cities'));
  writeFileSync(path.join(to, 'cities', file), `${JSON.stringify([record], null, 2)}\n`);
}

function mostPopulousCity(dir: string): { file: string; record: unknown } {
  let best: { file: string; record: unknown; population: number } | undefined;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const records = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Array<{
      population: number;
    }>;
    for (const record of records)
      if (!best || record.population > best.population)
        best = { file, record, population: record.population };
  }
  if (!best) throw new Error(`${displayPath(dir)} holds no city to start from`);
  return best;
}

function sitePackage(name: string, claimsite: string): string {
  const pkg = {
    name,
    private: true,
    description: 'A lead-generation website for Canadian property owners, built with claimsite',
    scripts: {
      generate: 'claimsite generate',
      dev: 'claimsite dev',
      validate: 'claimsite validate',
      preview: 'claimsite serve',
    },
    engines: { node: '>=20.19' },
    // claimsite as npm pack made it: compiled, with nothing to run as it installs.
    dependencies: { claimsite },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function siteReadme(title: string): string {
  return `# ${title}

A lead-generation website for Canadian property owners, built with claimsite.

- \`npm install\`, then \`npx claimsite dev\`: the site at http://127.0.0.1:4321, rebuilt on every change.
- \`npm run generate\` builds it into \`dist/\`, the folder a host publishes; \`npx claimsite validate\` checks the data.
- Make it yours in \`data/\`: the settings in \`data/site.json\`, the cities in \`data/cities/\`, the words in \`data/content/\`, \`data/pages/\` and \`data/posts/\`. Files to publish as they are go in \`public/\`.
- Deploy: \`npx claimsite generate --strict\` is the publishing build. Each host's files are here: \`netlify.toml\` and \`netlify/functions/\` (Netlify), \`Dockerfile\` and \`compose.yaml\` (Docker), \`.github/workflows/pages.yml\` (GitHub Pages), \`claimsite.service\` (a Node host under systemd). \`npx claimsite deploy <host>\` brings a host's files up to date after \`npm update claimsite\`, never over a file you changed (\`.claimsite.json\` records what it wrote: commit it). Commit \`package-lock.json\` too.
- \`npm update claimsite\` brings the newest claimsite; run \`npx claimsite validate\` after it.

The guide (settings, deploying, leads, every command): \`node_modules/claimsite/README.md\`.
`;
}

const GITIGNORE = `/node_modules/
# What claimsite generate writes: the site, and beside it what the next build reads.
/dist/
/.dist.*
# Leads waiting for the CRM under claimsite serve: personal data.
/.outbox/
# Secrets (the CRM token).
.env
.env.*
*.log
`;
