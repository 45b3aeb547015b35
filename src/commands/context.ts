import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { generate } from '../generate/generate.js';
import { displayPath } from '../site/display-path.js';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks a question and resolves with the line answered. */
  ask: (question: string) => Promise<string>;
  /** True when stderr is a terminal: progress lines are drawn only there. */
  tty: boolean;
}

export const defaultIo: CliIo = {
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

/** What every command is given: where it talks, where claimsite is, and how to report. */
export interface CommandContext {
  io: CliIo;
  /** The claimsite package's own folder. */
  root: string;
  /** The data set bundled with claimsite: what `init` starts a site from. */
  bundledData: string;
  /** The default of every --data: the site folder's data, else the bundled data (siteData). */
  siteData: string;
  extras: CliExtras;
  /** For a command that completed but has something to report (leads still waiting). */
  setExitCode(code: number): void;
}

/**
 * The data a command reads without --data: in a site folder (one `claimsite init` made, or a
 * checkout of claimsite), its own `data/`; anywhere else, the data set bundled with claimsite.
 * A site folder is the working folder when it holds `data/site.json`.
 */
export function siteData(bundledData: string, cwd = process.cwd()): string {
  return existsSync(path.join(cwd, 'data', 'site.json')) ? 'data' : bundledData;
}

/** The commands that run the lead endpoint or open its store, and so read the site's .env. */
const ENV_COMMANDS = new Set(['serve', 'dev', 'leads']);

/**
 * The site folder's `.env` (the endpoint's secrets and settings on a Node host), for the commands
 * that need them, before their options are read: a variable already set in the environment wins.
 * Returns the file read, if any.
 */
export function loadSiteEnv(argv: readonly string[], cwd = process.cwd()): string | undefined {
  const command = argv.find((a) => !a.startsWith('-'));
  const file = path.join(cwd, '.env');
  if (!command || !ENV_COMMANDS.has(command) || !existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

/** --data, whose default is siteData's: named in the help by where it is found. */
export const dataOption = (siteData: string, what = 'data folder') =>
  new Option('--data <dir>', what)
    .argParser(parsePath)
    .default(siteData, "./data if it holds site.json, else claimsite's bundled data");

/** The public folder: the default is used when it exists, one named on the command line must. */
export function publicFolder(dir: string, named: boolean): string | null {
  if (existsSync(dir)) return dir;
  if (named) throw new Error(`the public folder ${displayPath(dir)} does not exist`);
  return null;
}

export const baseUrlOption = () =>
  new Option('--base-url <url>', 'site URL for canonical links and sitemap.xml').env('SITE_URL');

/** How a base URL that is not a URL is named: where the user gave it. */
export const baseUrlFrom = (cmd: Command) =>
  cmd.getOptionValueSource('baseUrl') === 'env' ? 'SITE_URL' : '--base-url';

/** A file or folder: a value starting with - is an option the user forgot the value of. */
export function parsePath(value: string): string {
  if (value.startsWith('-'))
    throw new InvalidArgumentError(`expects a path, not the option ${value}`);
  return value;
}

export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 64)
    throw new InvalidArgumentError('must be a whole number from 0 to 64');
  return Number(value);
}

export function parsePort(value: string): number {
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
