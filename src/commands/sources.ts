import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { displayPath } from '../site/display-path.js';
import { type CheckOptions, checkSources, type Verdict } from '../sources/check.js';
import { type CitedUrl, collectSources } from '../sources/collect.js';
import { type CommandContext, dataOption, parseCount } from './context.js';

/** Milliseconds, from 0 to ten minutes. */
function parseMs(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 600_000)
    throw new InvalidArgumentError('must be a whole number of milliseconds from 0 to 600000');
  return Number(value);
}

interface Flags {
  data: string;
  timeout: number;
  delay: number;
  hosts: number;
}

/** The user agent: the tool, and the site (by name and address) whose owner asks. */
function userAgent(dataDir: string): string {
  const file = path.join(dataDir, 'site.json');
  const settings = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { siteName?: string; baseUrl?: string })
    : {};
  const site = [settings.siteName, settings.baseUrl && `+${settings.baseUrl}`].filter(Boolean);
  return `claimsite-sources-check/1 (${site.length > 0 ? site.join('; ') : 'a claimsite site'})`;
}

/** The moved and the dead, each with where it is cited. */
function report(urls: readonly CitedUrl[], verdicts: readonly Verdict[]): string {
  const lines: string[] = [];
  const list = (title: string, kind: Verdict['kind'], say: (v: Verdict) => string) => {
    const hits = urls.flatMap((u, i) =>
      verdicts[i]?.kind === kind ? [[u, verdicts[i]] as const] : [],
    );
    if (hits.length === 0) return;
    lines.push(`${title} (${hits.length}):`);
    for (const [u, v] of hits)
      lines.push(`  ${u.url} ${say(v)}`, ...u.cited.map((c) => `      cited at ${c}`));
  };
  list('Moved: cite the new address', 'moved', (v) =>
    v.kind === 'moved' ? `-> ${v.location} (${v.status})` : '',
  );
  list('Dead: find the page again or drop what rests on it', 'dead', (v) =>
    v.kind === 'dead' ? `(${v.reason})` : '',
  );
  list('Answered otherwise: read them yourself', 'other', (v) => `(${v.status})`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** `claimsite sources check`: asks every source URL of the data whether it is still there. */
export function registerSources(program: Command, { io, siteData, setExitCode }: CommandContext) {
  const sources = program.command('sources').description("the data's sources");
  sources
    .command('check')
    .description(
      'ask every source URL of the data (HEAD, then GET where HEAD is refused) and list those that moved or died; exit 1 when one is dead',
    )
    .addOption(dataOption(siteData))
    .addOption(
      new Option('--timeout <ms>', 'how long to wait for each answer')
        .argParser(parseMs)
        .default(15000),
    )
    .addOption(
      new Option('--delay <ms>', 'pause between two requests to the same host')
        .argParser(parseMs)
        .default(1000),
    )
    .addOption(new Option('--hosts <n>', 'hosts asked at once').argParser(parseCount).default(4))
    .action(async (opts: Flags) => {
      const urls = collectSources(opts.data);
      const options: CheckOptions = {
        userAgent: userAgent(opts.data),
        timeoutMs: opts.timeout,
        delayMs: opts.delay,
        hosts: opts.hosts,
      };
      let done = 0;
      if (io.tty)
        options.onResult = () => {
          done++;
          io.err(`\rAsked ${done}/${urls.length}`);
          if (done === urls.length) io.err('\r\x1b[K');
        };
      const verdicts = await checkSources(urls, options);
      const count = (kind: Verdict['kind']) => verdicts.filter((v) => v.kind === kind).length;
      const hosts = new Set(urls.map((u) => (URL.canParse(u.url) ? new URL(u.url).host : u.url)))
        .size;
      io.out(
        `Checked ${urls.length} source URL${urls.length === 1 ? '' : 's'} on ${hosts} host${hosts === 1 ? '' : 's'} in ${displayPath(opts.data)}: ${count('ok')} answered, ${count('moved')} moved, ${count('dead')} dead, ${count('other')} answered otherwise.\n${report(urls, verdicts)}`,
      );
      if (count('dead') > 0) setExitCode(1);
    });
}
