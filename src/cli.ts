import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import {
  AuditFailed,
  auditReportFile,
  auditSite,
  auditSummary,
  indexablePages,
  writeAuditReport,
} from './audit/site-audit.js';
import { generate, PARALLEL_MIN_PAGES } from './generate/generate.js';
import { packageRoot } from './generate/root.js';
import { configFromEnv } from './lead/config.js';
import { drain } from './lead/delivery.js';
import { FileLeadStore } from './lead/file-store.js';
import { createLeadService } from './lead/handler.js';
import { buildPages } from './pages.js';
import { runBuildServer } from './serve/build-server.js';
import { Rebuilder } from './serve/rebuild.js';
import { startServer } from './serve/server.js';
import { startWatcher, type Watcher } from './serve/watch.js';
import { displayPath } from './site/display-path.js';
import { DataError } from './site/errors.js';
import { formatWhole } from './site/format.js';
import { loadSite } from './site/load.js';
import { PROVINCES } from './site/provinces.js';
import { missingTrust, sampleData, sampleNotice, trustNotice } from './site/sample.js';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks a question and resolves with the line answered. */
  ask: (question: string) => Promise<string>;
  /** True when stderr is a terminal: progress lines are drawn only there. */
  tty: boolean;
}

const defaultIo: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  ask: async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await new Promise<string>((resolve) => {
        rl.question(question, resolve);
        // Nothing to read (stdin closed): no answer, so nothing is done.
        rl.once('close', () => resolve(''));
      });
    } finally {
      rl.close();
    }
  },
  tty: Boolean(process.stderr.isTTY),
};

/** Extra inputs for tests and embedding: the build options that are not CLI flags. */
export type CliExtras = Pick<Parameters<typeof generate>[0], 'routes' | 'templates'>;

/**
 * Runs the CLI and resolves with the exit code: 0 success, 1 invalid data or failed build,
 * 2 usage error. `serve` resolves only when its server closes.
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
  const bundledData = path.join(root, 'data');
  let verbose = false;
  /** Set by a command that completed but has something to report (leads still waiting). */
  let exitCode = 0;

  const program = new Command('claimsite')
    .description('Builds the public-adjuster lead-generation website from its data set.')
    .version(version, '-v, --version')
    .option('--verbose', 'print stack traces for errors')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run claimsite --help for usage)')
    .hook('preAction', (cmd) => {
      verbose = Boolean(cmd.opts().verbose);
    });

  program
    .command('generate')
    .description('build the whole site into the output folder')
    .option('--data <dir>', 'data folder', parsePath, bundledData)
    .option('--out <dir>', 'output folder', parsePath, 'dist')
    .option(
      '--public <dir>',
      'files copied into the output as they are, if the folder exists',
      parsePath,
      'public',
    )
    .addOption(baseUrlOption())
    .option('--quiet', 'print nothing on success')
    .option('--no-audit', 'skip the content audit of the indexable pages')
    .option(
      '--strict',
      'fail the build, keeping the last output, if a page breaks the audit thresholds',
    )
    .option(
      '--workers <n>',
      `render on n more threads, 0 to render and write on one (default: with 4 or more cores, one per core but two, up to 3, from ${formatWhole(PARALLEL_MIN_PAGES)} pages to render)`,
      parseCount,
    )
    .action(async (opts: GenerateFlags, cmd: Command) => {
      let lastDraw = 0;
      const result = await generate({
        dataDir: opts.data,
        outDir: opts.out,
        publicDir: publicFolder(opts.public, cmd.getOptionValueSource('public') === 'cli'),
        baseUrl: opts.baseUrl,
        baseUrlFrom: baseUrlFrom(cmd),
        workers: opts.workers,
        audit: opts.strict ? 'strict' : opts.audit ? 'report' : undefined,
        ...extras,
        onProgress:
          io.tty && !opts.quiet
            ? (done, total) => {
                const now = Date.now();
                if (now - lastDraw < 100 && done < total) return;
                lastDraw = now;
                io.err(`\rRendering pages: ${formatWhole(done)}/${formatWhole(total)}`);
                if (done === total) io.err('\r\x1b[K');
              }
            : undefined,
      });
      if (!opts.quiet && result.foreign.length > 0) {
        io.out(
          `Left as they are in ${displayPath(result.outDir)}, not written by claimsite: ${result.foreign.join(', ')}\n`,
        );
      }
      if (!opts.quiet) {
        io.out(
          `Built ${formatWhole(result.pages)} pages (${formatWhole(result.rendered)} rendered): ${formatWhole(result.files)} files (${formatWhole(result.changed)} changed), ${formatBytes(result.bytes)} in ${(result.ms / 1000).toFixed(2)} s -> ${displayPath(result.outDir)}\n`,
        );
        if (result.shareImages.drawn > 0)
          io.out(
            `Drew ${formatWhole(result.shareImages.drawn)} share images (og:image)${result.shareCache ? `; later builds, in any folder, copy them from ${displayPath(result.shareCache)}` : ''}\n`,
          );
        if (result.audit && result.auditFile)
          io.out(`${auditSummary(result.audit)}  Report: ${displayPath(result.auditFile)}\n`);
        io.out(sampleNotice(result.sample));
        io.out(trustNotice(result.trustMissing));
      }
    });

  program
    .command('audit')
    .description(
      'measure how much of each indexable page of a built site is its own, and find near-duplicates',
    )
    .option('--data <dir>', 'data folder the site was built from', parsePath, bundledData)
    .option('--dir <dir>', 'built folder', parsePath, 'dist')
    .option('--strict', 'exit 1 if a page breaks the thresholds')
    .action(async (opts: { data: string; dir: string; strict?: boolean }) => {
      const site = await loadSite(opts.data);
      const report = auditSite(
        indexablePages(buildPages(site)),
        (file) => {
          const at = path.join(opts.dir, file);
          if (!existsSync(at))
            throw new Error(
              `${displayPath(at)} is missing: build the site first (claimsite generate --data ${displayPath(opts.data)} --out ${displayPath(opts.dir)})`,
            );
          return at;
        },
        site.facts.topics ?? undefined,
      );
      const file = auditReportFile(opts.dir);
      writeAuditReport(file, report);
      io.out(`${auditSummary(report)}  Report: ${displayPath(file)}\n`);
      if (opts.strict && report.failures.length > 0)
        throw new AuditFailed(report, displayPath(file));
    });

  program
    .command('validate')
    .description('check the data set and report what it holds, writing nothing')
    .option('--data <dir>', 'data folder', parsePath, bundledData)
    .addOption(baseUrlOption())
    .action(async (opts: { data: string; baseUrl?: string }, cmd: Command) => {
      // The same site URL generate would use, so that what validates also builds.
      const site = await loadSite(opts.data, {
        baseUrl: opts.baseUrl,
        baseUrlFrom: baseUrlFrom(cmd),
      });
      const pages = buildPages(site);
      const areas = site.cities.reduce((n, c) => n + c.areas.length, 0);
      const lines = PROVINCES.map((p) => {
        const n = site.cities.filter((c) => c.provinceCode === p.code).length;
        return `  ${p.name.padEnd(28)} ${String(n).padStart(4)}`;
      });
      io.out(
        [
          `Data OK: ${displayPath(opts.data)}`,
          'Cities per province and territory:',
          ...lines,
          `  ${'Total'.padEnd(28)} ${String(site.cities.length).padStart(4)}`,
          `Areas: ${formatWhole(areas)} in cities, ${site.national.areas.length} provinces and territories under ${site.national.slug}`,
          `Pages: ${formatWhole(pages.length)} (${formatWhole(pages.filter((p) => p.sitemap).length)} indexable)`,
          '',
        ].join('\n') +
          sampleNotice(sampleData(site)) +
          trustNotice(missingTrust(site)),
      );
    });

  const serveOptions = (cmd: Command) =>
    cmd
      .option('--dir <dir>', 'folder to serve (and, watching, to build into)', parsePath, 'dist')
      .option('--port <port>', 'port to listen on', parsePort, 4321)
      .option('--host <host>', 'address to listen on (0.0.0.0: every network)', '127.0.0.1')
      .option('--api <path>', 'where to mount the lead endpoint', '/api/lead')
      .option('--no-api', 'serve files only, without the lead endpoint')
      .option('--data <dir>', 'data folder to build from when watching', parsePath, bundledData)
      .option(
        '--public <dir>',
        'public folder to copy in when watching, if it exists',
        parsePath,
        'public',
      )
      .addOption(new Option('--base-url <url>', 'site URL when watching').env('SITE_URL'));

  serveOptions(
    program
      .command('serve')
      .description('preview a built site the way a static host serves it')
      .option('--watch', 'build, then rebuild on every change and reload open pages (as dev)'),
  ).action((opts: ServeFlags, cmd: Command) => serve(opts, cmd, Boolean(opts.watch)));

  serveOptions(
    program
      .command('dev')
      .description(
        'build, serve, and rebuild on every change to the data, public files or code, reloading open pages',
      ),
  ).action((opts: ServeFlags, cmd: Command) => serve(opts, cmd, true));

  // The process `dev` keeps for its builds, so they run warm; not for people to run.
  program.command('build-server', { hidden: true }).action(() => runBuildServer());

  async function serve(opts: ServeFlags, cmd: Command, watch: boolean): Promise<void> {
    let watcher: Watcher | undefined;
    let rebuilder: Rebuilder | undefined;
    if (watch) {
      rebuilder = new Rebuilder(root, {
        dataDir: path.resolve(opts.data),
        outDir: path.resolve(opts.dir),
        publicDir: publicFolder(opts.public, cmd.getOptionValueSource('public') === 'cli'),
        baseUrl: opts.baseUrl,
      });
      io.out('Building…\n');
      // Sources edited since lib/ was compiled are compiled first; if they do not compile, the
      // last good code builds and the error is shown until they do.
      const compiled = await rebuilder.compile();
      if (compiled) io.err(`${compiled}\n`);
      const first = await rebuilder.build();
      if (first.error)
        io.err(
          `Build failed; ${existsSync(opts.dir) ? 'serving the last good site' : 'nothing to serve until it builds'}.\n${first.error}\n`,
        );
      const shown = (f: string) => displayPath(f);
      watcher = startWatcher({
        folders: rebuilder.folders().map((f) => f.dir),
        rebuild: (changed) => (rebuilder as Rebuilder).rebuild(changed),
        onResult: (result, changed) => {
          const what = changed.map(shown).join(', ');
          if (result.error)
            io.err(
              `Build failed after a change to ${what}; still serving the last good site.\n${result.error}\n`,
            );
          else
            io.out(
              `Rebuilt after a change to ${what} (${formatWhole(result.changed)} files changed).\n`,
            );
        },
      });
      await watcher.ready;
    } else if (!existsSync(opts.dir)) {
      throw new Error(
        `${displayPath(opts.dir)} does not exist: build the site first (claimsite generate --out ${opts.dir}), or build and serve it with claimsite dev`,
      );
    }
    const { server, urls } = await startServer({
      dir: opts.dir,
      port: opts.port,
      host: opts.host,
      apiPath: opts.api || null,
      watcher,
    });
    io.out(
      `Serving ${displayPath(opts.dir)} at ${urls.join(', ')}${opts.api ? ` (lead endpoint ${opts.api})` : ''}${watcher ? ', watching for changes' : ''}\n`,
    );
    await new Promise<void>((resolve) => {
      // Open pages hold their connections (the reload channel, keep-alive): closed at once, so
      // one Ctrl-C stops the server.
      const stop = () => {
        server.close();
        server.closeAllConnections();
        rebuilder?.close();
        void watcher?.close().then(resolve, resolve);
        if (!watcher) resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  }

  const leads = program
    .command('leads')
    .description('leads not yet delivered to the CRM: waiting, and refused for good');
  const outboxOption = () =>
    new Option('--outbox <file>', 'outbox file')
      .argParser(parsePath)
      .env('LEAD_OUTBOX_PATH')
      .default('.outbox/leads.jsonl');
  leads
    .command('list')
    .description('show the leads waiting for the CRM, and the dead letters it refused')
    .addOption(outboxOption())
    .action(async (opts: { outbox: string }) => {
      const store = new FileLeadStore(opts.outbox);
      const [waiting, dead] = await Promise.all([store.waiting(), store.dead()]);
      const where = displayPath(opts.outbox);
      const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
      if (waiting.length === 0) io.out(`No leads waiting in ${where}.\n`);
      else io.out(`${count(waiting.length, 'lead', 'leads')} waiting in ${where}:\n`);
      for (const e of waiting) {
        io.out(
          `  ${e.receivedAt}  ${e.submissionId}  ${e.lead.form.padEnd(13)} ${e.lead.email}  (${e.reason}; ${count(e.attempts, 'retry', 'retries')}, next ${e.nextAttemptAt})\n`,
        );
      }
      if (dead.length > 0) {
        io.out(
          `${count(dead.length, 'dead letter', 'dead letters')}, refused by the CRM for good:\n`,
        );
        for (const e of dead)
          io.out(
            `  ${e.receivedAt}  ${e.submissionId}  ${e.lead.form.padEnd(13)} ${e.lead.email}  (${e.reason})\n`,
          );
      }
    });
  leads
    .command('retry')
    .description(
      'deliver every waiting lead to the CRM now; keeps what still fails (safe to run at any time)',
    )
    .addOption(outboxOption())
    .action(async (opts: { outbox: string }) => {
      const config = configFromEnv({ ...process.env, LEAD_OUTBOX_PATH: opts.outbox });
      if (!config.token) throw new Error('GHL_TOKEN is not set: nothing can be delivered');
      const { deliverer } = createLeadService({ config });
      const r = await drain(deliverer, { all: true });
      const dead = (await deliverer.store.dead()).length;
      io.out(
        `Delivered ${r.delivered}, still waiting ${r.waiting}, refused for good now ${r.dead}.${dead > 0 ? ` ${dead} dead ${dead === 1 ? 'letter waits' : 'letters wait'} for you: see claimsite leads list, then fix the data in the CRM or drop ${dead === 1 ? 'it' : 'them'} (claimsite leads drop <id>).` : ''}\n`,
      );
      // Dead letters are the owner's to handle; retrying them would be refused again.
      if (r.waiting > 0) exitCode = 1;
    });
  leads
    .command('drop')
    .description('remove one waiting lead or dead letter, after asking')
    .argument('<id>', 'the submission id, as leads list shows it')
    .addOption(outboxOption())
    .option('--yes', 'do not ask')
    .action(async (id: string, opts: { outbox: string; yes?: boolean }) => {
      const store = new FileLeadStore(opts.outbox);
      const entry =
        (await store.waiting()).find((e) => e.submissionId === id) ??
        (await store.dead()).find((e) => e.submissionId === id);
      if (!entry) throw new Error(`no lead ${id} in ${displayPath(opts.outbox)}`);
      if (!opts.yes) {
        const answer = await io.ask(
          `Drop lead ${id} from ${entry.lead.fullName} <${entry.lead.email}>, received ${entry.receivedAt}? It cannot be undone. [y/N] `,
        );
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.out('Nothing dropped.\n');
          return;
        }
      }
      await store.drop(id);
      io.out(`Dropped lead ${id}.\n`);
    });

  // No command: the help, and a usage error, rather than nothing and success.
  const asksForHelp = argv.some((a) => ['-h', '--help', '-v', '--version'].includes(a));
  if (!asksForHelp && !argv.some((a) => !a.startsWith('-'))) {
    io.err(program.helpInformation());
    return 2;
  }
  if (io === defaultIo) quietOnClosedPipe();
  try {
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

interface ServeFlags {
  dir: string;
  port: number;
  host: string;
  api: string | false;
  watch?: boolean;
  data: string;
  public: string;
  baseUrl?: string;
}

interface GenerateFlags {
  data: string;
  out: string;
  public: string;
  baseUrl?: string;
  quiet?: boolean;
  workers?: number;
  /** false with --no-audit. */
  audit: boolean;
  strict?: boolean;
}

/** The public folder: the default is used when it exists, one named on the command line must. */
function publicFolder(dir: string, named: boolean): string | null {
  if (existsSync(dir)) return dir;
  if (named) throw new Error(`the public folder ${displayPath(dir)} does not exist`);
  return null;
}

const baseUrlOption = () =>
  new Option('--base-url <url>', 'site URL for canonical links and sitemap.xml').env('SITE_URL');

/** How a base URL that is not a URL is named: where the user gave it. */
const baseUrlFrom = (cmd: Command) =>
  cmd.getOptionValueSource('baseUrl') === 'env' ? 'SITE_URL' : '--base-url';

/** A file or folder: a value starting with - is an option the user forgot the value of. */
function parsePath(value: string): string {
  if (value.startsWith('-'))
    throw new InvalidArgumentError(`expects a path, not the option ${value}`);
  return value;
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 64)
    throw new InvalidArgumentError('must be a whole number from 0 to 64');
  return Number(value);
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return n;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export { writePrebuiltClient } from './generate/client-bundle.js';
// The programmatic API, for scripts and embedding.
export { generate } from './generate/generate.js';
export { configFromEnv } from './lead/config.js';
export { createLeadHandler, createLeadService } from './lead/handler.js';
export { handleNode } from './lead/node.js';
export { startServer } from './serve/server.js';
