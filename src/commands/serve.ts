import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { configFromEnv } from '../lead/config.js';
import { runBuildServer } from '../serve/build-server.js';
import { Rebuilder } from '../serve/rebuild.js';
import { startServer } from '../serve/server.js';
import { startWatcher, type Watcher } from '../serve/watch.js';
import { displayPath } from '../site/display-path.js';
import { formatWhole } from '../site/format.js';
import { type CommandContext, dataOption, parsePath, parsePort, publicFolder } from './context.js';

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

/** `claimsite serve` and `claimsite dev`: a built folder served as the hosts serve it. */
export function registerServe(program: Command, context: CommandContext) {
  const { siteData } = context;
  const serveOptions = (cmd: Command) =>
    cmd
      .option('--dir <dir>', 'folder to serve (and, watching, to build into)', parsePath, 'dist')
      .option('--port <port>', 'port to listen on', parsePort, 4321)
      .option('--host <host>', 'address to listen on (0.0.0.0: every network)', '127.0.0.1')
      .option('--api <path>', 'where to mount the lead endpoint', '/api/lead')
      .option('--no-api', 'serve files only, without the lead endpoint')
      .addOption(dataOption(siteData, 'data folder to build from when watching'))
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
  ).action((opts: ServeFlags, cmd: Command) => serve(context, opts, cmd, Boolean(opts.watch)));

  serveOptions(
    program
      .command('dev')
      .description(
        'build, serve, and rebuild on every change to the data, public files or code, reloading open pages',
      ),
  ).action((opts: ServeFlags, cmd: Command) => serve(context, opts, cmd, true));

  // The process `dev` keeps for its builds, so they run warm; not for people to run.
  program.command('build-server', { hidden: true }).action(() => runBuildServer());
}

async function serve(
  { io, root }: CommandContext,
  opts: ServeFlags,
  cmd: Command,
  watch: boolean,
): Promise<void> {
  const watching = watch ? await startWatching(io, root, opts, cmd) : undefined;
  const watcher = watching?.watcher;
  const rebuilder = watching?.rebuilder;
  if (!watch && !existsSync(opts.dir)) {
    throw new Error(
      `${displayPath(opts.dir)} does not exist: build the site first (claimsite generate --out ${opts.dir}), or build and serve it with claimsite dev`,
    );
  }
  const serving = await startServer({
    dir: opts.dir,
    port: opts.port,
    host: opts.host,
    apiPath: opts.api || null,
    watcher,
  });
  io.out(
    `Serving ${displayPath(opts.dir)} at ${serving.urls.join(', ')}${opts.api ? ` (lead endpoint ${opts.api}${existsSync('.env') ? ', settings from .env' : ''})` : ''}${watcher ? ', watching for changes' : ''}\n`,
  );
  if (opts.api && !configFromEnv().token)
    io.err(
      'Warning: GHL_TOKEN is not set: leads are kept, but not delivered to the CRM until it is (and the server restarted). /api/health says so too.\n',
    );
  await new Promise<void>((resolve) => {
    // A stop (Ctrl-C, or the SIGTERM of `docker stop`) takes no new connection, lets the leads
    // being posted finish and be kept, and closes the store; open pages' connections (the
    // reload channel, keep-alive) are closed at once, so one Ctrl-C stops the server.
    const stop = () => {
      rebuilder?.close();
      void Promise.allSettled([serving.close(watcher ? 0 : undefined), watcher?.close()]).then(() =>
        resolve(),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The first build, then a rebuild on every change to what the site is built from. */
async function startWatching(
  io: CommandContext['io'],
  root: string,
  opts: ServeFlags,
  cmd: Command,
): Promise<{ watcher: Watcher; rebuilder: Rebuilder }> {
  const rebuilder = new Rebuilder(root, {
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
  const watcher = startWatcher({
    folders: rebuilder.folders().map((f) => f.dir),
    rebuild: (changed) => rebuilder.rebuild(changed),
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
  return { watcher, rebuilder };
}
