import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { cliReference, readmeSynopsis } from './cli-reference.js';
import { registerAudit } from './commands/audit.js';
import {
  type CliExtras,
  type CliIo,
  type CommandContext,
  defaultIo,
  loadSiteEnv,
  siteData,
} from './commands/context.js';
import { registerDeploy } from './commands/deploy.js';
import { registerGenerate } from './commands/generate.js';
import { registerInit } from './commands/init.js';
import { registerLeads } from './commands/leads.js';
import { registerServe } from './commands/serve.js';
import { registerSources } from './commands/sources.js';
import { registerValidate } from './commands/validate.js';
import { packageRoot } from './root.js';
import { DataError } from './site/errors.js';

export type { CliExtras, CliIo } from './commands/context.js';

/**
 * Runs the CLI and resolves with the exit code: 0 success, 1 invalid data or failed build,
 * 2 usage error. `serve` resolves only when its server closes. Each command is a module of
 * its own under src/commands/.
 */
export async function main(
  argv: string[],
  io: CliIo = defaultIo,
  extras: CliExtras = {},
): Promise<number> {
  const root = packageRoot();
  const version = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
  ).version;
  let verbose = false;
  let exitCode = 0;
  const context: CommandContext = {
    io,
    root,
    bundledData: path.join(root, 'data'),
    siteData: siteData(path.join(root, 'data')),
    extras,
    setExitCode: (code) => {
      exitCode = code;
    },
  };

  const program = createProgram(context, version, (v) => {
    verbose = v;
  });

  // No command: the help, and a usage error, rather than nothing and success.
  const asksForHelp = argv.some((a) => ['-h', '--help', '-v', '--version'].includes(a));
  if (!asksForHelp && !argv.some((a) => !a.startsWith('-'))) {
    io.err(program.helpInformation());
    return 2;
  }
  if (io === defaultIo) quietOnClosedPipe();
  try {
    loadSiteEnv(argv);
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
        ? 0
        : 2;
    }
    if (err instanceof DataError) {
      io.err(`${err.message}\n`);
      return 1;
    }
    const e = err as Error;
    io.err(`claimsite: ${e.message ?? String(err)}\n`);
    if (verbose && e.stack) io.err(`${e.stack}\n`);
    return 1;
  }
}

/** Every command, as the CLI and its generated reference (src/cli-reference.ts) know them. */
export function createProgram(
  context: CommandContext,
  version: string,
  onVerbose: (verbose: boolean) => void = () => {},
): Command {
  const { io } = context;
  const program = new Command('claimsite')
    .description('Builds the public-adjuster lead-generation website from its data set.')
    .version(version, '-v, --version')
    .option('--verbose', 'print stack traces for errors')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run claimsite --help for usage)')
    .hook('preAction', (cmd) => onVerbose(Boolean(cmd.opts().verbose)));
  for (const register of [
    registerGenerate,
    registerAudit,
    registerValidate,
    registerSources,
    registerServe,
    registerLeads,
    registerInit,
    registerDeploy,
  ])
    register(program, context);
  return program;
}

/** The generated CLI reference: docs/cli.md's text and the README's synopsis. */
export function cliDocs(): { reference: string; synopsis: string } {
  const root = packageRoot();
  const context: CommandContext = {
    io: defaultIo,
    root,
    bundledData: path.join(root, 'data'),
    siteData: 'data',
    extras: {},
    setExitCode: () => {},
  };
  const program = createProgram(context, '0');
  return { reference: cliReference(program), synopsis: readmeSynopsis(program) };
}

/**
 * Output piped into a reader that stopped reading (`claimsite leads list | head -1`): nothing
 * more can be said, and it is not an error.
 */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

export { formatBytes } from './commands/context.js';
export { writePrebuiltClient } from './generate/client-bundle.js';
// The programmatic API, for scripts and embedding.
export { generate } from './generate/generate.js';
export { configFromEnv } from './lead/config.js';
export { createLeadService, handleNode } from './lead/node-api.js';
export { startServer } from './serve/server.js';
