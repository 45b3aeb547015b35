import type { Command } from 'commander';
import { claimsiteDependency } from '../init/claimsite-dependency.js';
import { writeNewSite } from '../init/new-site.js';
import { displayPath } from '../site/display-path.js';
import { type CommandContext, parsePath } from './context.js';

/** `claimsite init <dir>`: a new site folder, apart from claimsite. */
export function registerInit(program: Command, { io, root, bundledData }: CommandContext) {
  program
    .command('init')
    .description(
      'make a new site folder (its own data, public files and package.json) that claimsite generate builds from inside it',
    )
    .argument('<dir>', 'the folder to make: a new one, or an empty one', parsePath)
    .option('--empty', 'start from a minimal data set (one city) instead of the bundled one')
    .option(
      '--claimsite <spec>',
      "what the site's package.json depends on for claimsite, as npm install takes it (a git URL, a tarball, a folder) (default: where this claimsite comes from)",
    )
    .action((dir: string, opts: { empty?: boolean; claimsite?: string }) => {
      const claimsite = opts.claimsite ?? claimsiteDependency(root);
      writeNewSite({ dir, from: bundledData, empty: Boolean(opts.empty), claimsite });
      const shown = displayPath(dir);
      io.out(
        [
          `Made a new site in ${shown}${opts.empty ? ', from a minimal data set' : ''}:`,
          '  data/          its data: settings in data/site.json, cities, content, legal pages',
          '  public/        files published as they are',
          `  package.json   depends on claimsite: ${claimsite}`,
          '  README.md, .gitignore',
          'Next:',
          `  cd ${shown}`,
          '  npm install',
          '  npx claimsite dev          # http://127.0.0.1:4321, rebuilt on every change',
          '',
        ].join('\n'),
      );
    });
}
