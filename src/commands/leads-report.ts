import { type Command, InvalidArgumentError, Option } from 'commander';
import { configFromEnv, DEFAULT_OUTBOX_PATH } from '../lead/config.js';
import { leadValue } from '../lead/lead-values.js';
import { jsonLog } from '../lead/log.js';
import { openLeadStore } from '../lead/open-store.js';
import { REPORT_GROUPS, type ReportGroup, type ReportRow, summarise } from '../lead/report.js';
import { type CommandContext, parsePath } from './context.js';

const DAY_MS = 24 * 60 * 60_000;

/** `30d`, `8w` or a date (YYYY-MM-DD): the start of the report, as an ISO time. */
function parseSince(value: string, now = Date.now()): string {
  const span = /^(\d{1,4})([dw])$/.exec(value.trim());
  if (span)
    return new Date(now - Number(span[1]) * (span[2] === 'w' ? 7 : 1) * DAY_MS).toISOString();
  if (/^\d{4}-\d\d-\d\d$/.test(value.trim()) && !Number.isNaN(Date.parse(value)))
    return new Date(`${value.trim()}T00:00:00Z`).toISOString();
  throw new InvalidArgumentError('give a number of days or weeks (30d, 8w) or a date (2026-01-31)');
}

/**
 * `claimsite leads report [--since 30d] [--by source|city|claim|week] [--csv]`: how many leads
 * came, from where, and what became of them, from the store's counts, which hold nothing
 * personal and outlive the leads' personal data.
 */
export function registerLeadsReport(leads: Command, { io }: Pick<CommandContext, 'io'>) {
  leads
    .command('report')
    .description(
      'count the leads received: by source, city, claim or week, and what became of them',
    )
    .addOption(
      new Option('--outbox <file>', 'the SQLite database of leads (unless LEAD_STORE_URL is set)')
        .argParser(parsePath)
        .env('LEAD_OUTBOX_PATH')
        .default(DEFAULT_OUTBOX_PATH),
    )
    .addOption(
      new Option('--since <when>', 'from this long ago (30d, 8w) or this date (YYYY-MM-DD)')
        .argParser((v) => parseSince(v))
        .default(parseSince('30d'), '30d'),
    )
    .addOption(
      new Option('--by <group>', 'group the leads by').choices(REPORT_GROUPS).default('source'),
    )
    .option('--csv', 'print comma-separated values, for a spreadsheet')
    .action(async (opts: { outbox: string; since: string; by: ReportGroup; csv?: boolean }) => {
      const config = configFromEnv({ ...process.env, LEAD_OUTBOX_PATH: opts.outbox });
      const store = openLeadStore(config, jsonLog);
      try {
        const counted = await store.counted(opts.since);
        const rows = summarise(counted, opts.by, (l) => leadValue(l.lossRange, config.leadValues));
        io.out(opts.csv ? csv(opts.by, rows) : table(opts.by, rows, opts.since, store.where));
      } finally {
        await store.close();
      }
    });
}

const COLUMNS = ['leads', 'delivered', 'waiting', 'refused', 'dropped', 'value'] as const;

function csv(by: ReportGroup, rows: readonly ReportRow[]): string {
  const cell = (v: string | number) =>
    /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v);
  return `${[by, ...COLUMNS].join(',')}\n${rows.map((r) => [r.group, ...COLUMNS.map((c) => r[c])].map(cell).join(',')).join('\n')}${rows.length ? '\n' : ''}`;
}

function table(by: ReportGroup, rows: readonly ReportRow[], since: string, where: string): string {
  const total = rows.reduce((n, r) => n + r.leads, 0);
  const head = `${total} ${total === 1 ? 'lead' : 'leads'} since ${since.slice(0, 10)} in ${where}, by ${by}${total ? ':' : '.'}\n`;
  if (!total) return head;
  const money = (n: number) => `$${n.toLocaleString('en-CA')}`;
  const cells = rows.map((r) => [
    r.group,
    ...COLUMNS.map((c) => (c === 'value' ? money(r[c]) : String(r[c]))),
  ]);
  const header = [by, ...COLUMNS];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    `  ${c.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  ')}\n`;
  return head + line(header) + cells.map(line).join('');
}
