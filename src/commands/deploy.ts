import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { HOSTS, type Host, type Outcome, RECORD, writeRecipes } from '../init/recipes.js';
import { displayPath } from '../site/display-path.js';
import { type CommandContext, parsePath } from './context.js';

/** What to do next on each host, once its files are in the folder. */
const NEXT: Record<Host, string> = {
  netlify:
    'Next: commit, connect the repository in Netlify, and set GHL_TOKEN and GHL_LOCATION_ID in its environment variables (README: Deploy).',
  cloudflare:
    "Cloudflare Pages needs no file in the folder: in its settings, build command npx claimsite generate --strict, output directory dist, variables SITE_URL and NODE_VERSION=22. It runs no endpoint of claimsite's: set leadEndpoint in data/site.json to a Node host's (claimsite deploy docker, or node) (README: Deploy).",
  'github-pages':
    'Next: commit and push; in the repository, Settings > Pages > Source: GitHub Actions, and the variable SITE_URL (README: Deploy).',
  docker:
    'Next: npm install (commit package-lock.json), then docker compose up -d --build with a .env beside it (README: Deploy).',
  node: 'Next: npm run generate, then install claimsite.service as a systemd unit (README: Deploy).',
};

function parseHost(value: string): Host {
  if (!(HOSTS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${HOSTS.join(', ')}`);
  return value as Host;
}

/** `claimsite deploy <host>`: a host's files written into a site folder, or brought up to date. */
export function registerDeploy(program: Command, { io, root, setExitCode }: CommandContext) {
  program
    .command('deploy')
    .description(
      "write a host's files into a site folder, or bring them up to date; a file you changed is kept, with what differs",
    )
    .argument('<host>', HOSTS.join(' | '), parseHost)
    .option('--dir <dir>', 'the site folder', parsePath, '.')
    .action((host: Host, opts: { dir: string }) => {
      if (!existsSync(path.join(opts.dir, 'data', 'site.json')))
        throw new Error(
          `${displayPath(path.resolve(opts.dir))} is not a site folder (it has no data/site.json): run claimsite deploy in the folder claimsite init made, or name it with --dir`,
        );
      const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        version: string;
      };
      const outcomes = writeRecipes(opts.dir, [host], path.join(root, 'recipes'), version);
      io.out(report(outcomes));
      const kept = outcomes.filter((o) => o.done === 'kept');
      for (const o of kept) if (o.done === 'kept') io.err(`${o.diff}\n`);
      if (kept.length > 0) {
        io.err(
          `Kept ${kept.map((o) => o.file).join(', ')} as you changed ${kept.length === 1 ? 'it' : 'them'} (claimsite's version differs as above: lines with + are claimsite's). To take claimsite's, move yours away and run claimsite deploy ${host} again.\n`,
        );
        setExitCode(1);
      } else io.out(`${NEXT[host]}\n`);
    });
}

function report(outcomes: Outcome[]): string {
  if (outcomes.length === 0) return '';
  const said = {
    wrote: 'wrote',
    updated: 'brought up to date',
    current: 'up to date',
    kept: 'kept yours',
  };
  const width = Math.max(...outcomes.map((o) => o.file.length));
  return `${outcomes.map((o) => `  ${o.file.padEnd(width)}  ${said[o.done]}`).join('\n')}\n  (${RECORD} records what claimsite wrote: commit it)\n`;
}
