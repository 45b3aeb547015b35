import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';

/** The hosts a site folder deploys to, each with the files its recipe needs. */
export const HOSTS = ['netlify', 'cloudflare', 'github-pages', 'docker', 'node'] as const;
export type Host = (typeof HOSTS)[number];

/**
 * Each host's files: where claimsite keeps the file (under its recipes/ folder) and where it goes
 * in a site folder. A dotted name is kept undotted in claimsite, so that no packer leaves it out.
 */
const RECIPES: Record<Host, ReadonlyArray<{ from: string; to: string }>> = {
  netlify: [
    { from: 'netlify/netlify.toml', to: 'netlify.toml' },
    { from: 'netlify/lead.mjs', to: 'netlify/functions/lead.mjs' },
    { from: 'netlify/drain-leads.mjs', to: 'netlify/functions/drain-leads.mjs' },
  ],
  // Cloudflare Pages is set up in its own settings and runs no endpoint of claimsite's.
  cloudflare: [],
  'github-pages': [{ from: 'github-pages/pages.yml', to: '.github/workflows/pages.yml' }],
  docker: [
    { from: 'docker/Dockerfile', to: 'Dockerfile' },
    { from: 'docker/compose.yaml', to: 'compose.yaml' },
    { from: 'docker/dockerignore', to: '.dockerignore' },
  ],
  node: [{ from: 'node/claimsite.service', to: 'claimsite.service' }],
};

/**
 * The record, in the site folder, of each file claimsite wrote there and the digest of what it
 * wrote: a file whose digest still matches is claimsite's to bring up to date; one that does not
 * is the owner's, and stays as it is.
 */
export const RECORD = '.claimsite.json';

interface Record_ {
  written: Record<string, string>;
}

/** What became of one file. */
export type Outcome =
  | { file: string; done: 'wrote' | 'updated' | 'current' }
  | { file: string; done: 'kept'; diff: string };

const digest = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function readRecord(site: string): Record_ {
  const text = readText(path.join(site, RECORD));
  if (text === undefined) return { written: {} };
  try {
    const parsed = JSON.parse(text) as Partial<Record_>;
    return { written: { ...parsed.written } };
  } catch {
    throw new Error(`${RECORD}: is not valid JSON (it records the files claimsite wrote)`);
  }
}

/** Written beside the file and renamed onto it: never half a file. */
function writeWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  writeFileSync(temp, text, { flag: 'wx' });
  renameSync(temp, file);
}

/**
 * Writes the hosts' files into a site folder, or brings them up to date: a file that is missing
 * is written, one claimsite wrote and nobody changed since is replaced by the current one, and
 * one the owner changed (or made) is kept as it is, with what differs.
 */
export function writeRecipes(
  site: string,
  hosts: readonly Host[],
  recipes: string,
  version: string,
): Outcome[] {
  const record = readRecord(site);
  const outcomes: Outcome[] = [];
  for (const host of hosts)
    for (const { from, to } of RECIPES[host]) {
      const ours = readFileSync(path.join(recipes, from), 'utf8');
      const file = path.join(site, to);
      const theirs = readText(file);
      const done = outcomeOf(ours, theirs, record.written[to]);
      if (done === 'kept') {
        outcomes.push({ file: to, done, diff: differences(to, theirs ?? '', ours, version) });
        continue;
      }
      if (done !== 'current') writeWhole(file, ours);
      record.written[to] = digest(ours);
      outcomes.push({ file: to, done });
    }
  const sorted = Object.fromEntries(
    Object.entries(record.written).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  const text = `${JSON.stringify({ written: sorted }, null, 2)}\n`;
  if (readText(path.join(site, RECORD)) !== text) writeWhole(path.join(site, RECORD), text);
  return outcomes;
}

function outcomeOf(ours: string, theirs: string | undefined, recorded: string | undefined) {
  if (theirs === undefined) return 'wrote';
  if (theirs === ours) return 'current';
  return recorded === digest(theirs) ? 'updated' : 'kept';
}

/** The owner's file against claimsite's, as a unified diff. */
function differences(file: string, theirs: string, ours: string, version: string): string {
  return createTwoFilesPatch(
    `${file} (yours)`,
    `${file} (claimsite ${version})`,
    theirs,
    ours,
    undefined,
    undefined,
    { context: 2 },
  )
    .split('\n')
    .slice(1) // the "=====" line
    .join('\n');
}
