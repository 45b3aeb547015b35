import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Command, CommanderError } from 'commander';
import {
  defaultClaimsiteSpec,
  localSpecWarning,
  noDefaultSpec,
  specKind,
} from '../init/claimsite-dependency.js';
import { writeNewSite } from '../init/new-site.js';
import { displayPath } from '../site/display-path.js';
import { type CommandContext, parsePath } from './context.js';

/** `claimsite init <dir>`: a new site folder, apart from claimsite. */
export function registerInit(program: Command, { io, root, bundledData }: CommandContext) {
  program
    .command('init')
    .description(
      "make a new site folder (its own data, public files, package.json and hosts' files) that claimsite generate builds from inside it",
    )
    .argument('<dir>', 'the folder to make: a new one, or an empty one', parsePath)
    .option('--empty', 'start from a minimal data set (one city) instead of the bundled one')
    .option(
      '--claimsite <spec>',
      "where the site's builds get claimsite, as npm install takes it: a version from your registry, a tarball's URL, a git URL (default: what npx --package=<spec> was given)",
    )
    .action((dir: string, opts: { empty?: boolean; claimsite?: string }) => {
      const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        version: string;
      };
      const claimsite = opts.claimsite ?? defaultClaimsiteSpec(root);
      if (!claimsite) {
        io.err(`${noDefaultSpec(version)}\n`);
        throw new CommanderError(2, 'claimsite.init.spec', 'init needs --claimsite');
      }
      writeNewSite({
        dir,
        from: bundledData,
        empty: Boolean(opts.empty),
        claimsite,
        recipes: path.join(root, 'recipes'),
        version,
      });
      io.out(made(displayPath(dir), Boolean(opts.empty), claimsite));
      if (specKind(claimsite) === 'local') io.err(localSpecWarning(claimsite));
    });
}

function made(shown: string, empty: boolean, claimsite: string): string {
  return [
    `Made a new site in ${shown}${empty ? ', from a minimal data set' : ''}:`,
    '  data/          its data: settings in data/site.json, cities, content, legal pages',
    '  public/        files published as they are',
    `  package.json   depends on claimsite: ${claimsite}`,
    "  each host's files: netlify.toml, netlify/functions/, Dockerfile, compose.yaml,",
    '  .github/workflows/pages.yml, claimsite.service (README.md says which is which)',
    'Next:',
    `  cd ${shown}`,
    '  npm install',
    '  npx claimsite dev          # http://127.0.0.1:4321, rebuilt on every change',
    '',
  ].join('\n');
}
