import path from 'node:path';
import { type Command, Option } from 'commander';
import { configFromEnv, DEFAULT_OUTBOX_PATH } from '../lead/config.js';
import { drain } from '../lead/delivery.js';
import { createLeadService } from '../lead/handler.js';
import { findInSetAside, forgetInSetAside } from '../lead/legacy-outbox.js';
import { jsonLog } from '../lead/log.js';
import { openLeadStore, sqliteFiles, withConfiguredStore } from '../lead/open-store.js';
import type { Lead } from '../lead/schema.js';
import { SqlLeadStore } from '../lead/sql-store.js';
import { allWaiting, type HeldRecord, type LeadStore, type PersonQuery } from '../lead/store.js';
import { type CommandContext, parsePath } from './context.js';
import { registerLeadsCheck } from './leads-check.js';
import { registerLeadsReport } from './leads-report.js';
import { registerLeadsStore } from './leads-store.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `claimsite leads ...`: the leads not yet delivered to the CRM, and what is held of a person. */
export function registerLeads(program: Command, { io, setExitCode }: CommandContext) {
  const leads = program
    .command('leads')
    .description(
      'leads not yet delivered to the CRM (waiting, and refused for good), and what is held of a person',
    );
  registerLeadsCheck(leads, { io, setExitCode });
  registerLeadsReport(leads, { io });
  registerLeadsStore(leads, { io, setExitCode });
  registerList(leads, io);
  registerRetry(leads, { io, setExitCode });
  registerDrop(leads, io);
  registerShow(leads, io);
  registerForget(leads, io);
}

const outboxOption = () =>
  new Option('--outbox <file>', 'the SQLite database of leads (unless LEAD_STORE_URL is set)')
    .argParser(parsePath)
    .env('LEAD_OUTBOX_PATH')
    .default(DEFAULT_OUTBOX_PATH);

/** The store as `serve` opens it from the same settings; closed when `fn` is done. */
async function withStore<T>(outbox: string, fn: (store: LeadStore) => Promise<T>): Promise<T> {
  const store = openLeadStore({ outboxPath: outbox, storeUrl: configFromEnv().storeUrl }, jsonLog);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Where a SQLite store's older outbox files were set aside; none for a server's store. */
const setAsideDir = (outbox: string) =>
  configFromEnv().storeUrl ? null : path.dirname(sqliteFiles(outbox).database);
const personOptions = (cmd: Command) =>
  cmd
    .option('--email <address>', "the person's e-mail address (any case)")
    .option('--phone <number>', "the person's phone number (any format)");
const personOf = (opts: PersonQuery): PersonQuery => {
  if (!opts.email?.trim() && !opts.phone?.trim())
    throw new Error('name the person: --email <address>, --phone <number>, or both');
  return opts;
};
const named = (p: PersonQuery) => [p.email, p.phone].filter(Boolean).join(' or ');

/** `claimsite leads list`: what waits for the CRM, and what it refused for good. */
function registerList(leads: Command, io: CommandContext['io']) {
  leads
    .command('list')
    .description('show the leads waiting for the CRM, and the dead letters it refused')
    .addOption(outboxOption())
    .action((opts: { outbox: string }) =>
      withStore(opts.outbox, async (store) => {
        const [{ waiting }, dead] = await Promise.all([store.counts(), store.dead()]);
        const config = configFromEnv({ ...process.env, LEAD_OUTBOX_PATH: opts.outbox });
        if (waiting === 0) io.out(`No leads waiting in ${store.where}.\n`);
        else io.out(`${count(waiting, 'lead', 'leads')} waiting in ${store.where}:\n`);
        for await (const e of allWaiting(store)) {
          io.out(
            `  ${e.receivedAt}  ${e.submissionId}  ${e.lead.form.padEnd(13)} ${e.lead.email}  (${e.reason}; ${count(e.attempts, 'retry', 'retries')}, next ${e.nextAttemptAt})\n`,
          );
        }
        if (dead.length > 0) {
          io.out(
            `${count(dead.length, 'dead letter', 'dead letters')}, refused by the CRM for good (deleted ${config.deadLetterDays} days after):\n`,
          );
          for (const e of dead)
            io.out(
              `  ${e.receivedAt}  ${e.submissionId}  ${e.lead.form.padEnd(13)} ${e.lead.email}  (${e.reason}; deleted after ${expiry(e.deadAt, config.deadLetterDays)})\n`,
            );
        }
      }),
    );
}

/** `claimsite leads retry`: every waiting lead delivered now. */
function registerRetry(
  leads: Command,
  { io, setExitCode }: Pick<CommandContext, 'io' | 'setExitCode'>,
) {
  leads
    .command('retry')
    .description(
      'deliver every waiting lead to the CRM now; keeps what still fails (safe to run at any time)',
    )
    .addOption(outboxOption())
    .action(async (opts: { outbox: string }) => {
      const config = configFromEnv({ ...process.env, LEAD_OUTBOX_PATH: opts.outbox });
      if (!config.token) throw new Error('GHL_TOKEN is not set: nothing can be delivered');
      const { deliverer } = createLeadService(withConfiguredStore({ config }));
      try {
        const r = await drain(deliverer, { all: true });
        const dead = (await deliverer.store.counts()).dead;
        io.out(
          `Delivered ${r.delivered}, still waiting ${r.waiting}, refused for good now ${r.dead}.${dead > 0 ? ` ${dead} dead ${dead === 1 ? 'letter waits' : 'letters wait'} for you: see claimsite leads list, then fix the data in the CRM or drop ${dead === 1 ? 'it' : 'them'} (claimsite leads drop <id>).` : ''}\n`,
        );
        // Dead letters are the owner's to handle; retrying them would be refused again.
        if (r.waiting > 0) setExitCode(1);
      } finally {
        await deliverer.store.close();
      }
    });
}

/** `claimsite leads drop <id>`: one waiting lead or dead letter removed, after asking. */
function registerDrop(leads: Command, io: CommandContext['io']) {
  leads
    .command('drop')
    .description('remove one waiting lead or dead letter, after asking')
    .argument('<id>', 'the submission id, as leads list shows it')
    .addOption(outboxOption())
    .option('--yes', 'do not ask')
    .action((id: string, opts: { outbox: string; yes?: boolean }) =>
      withStore(opts.outbox, async (store) => {
        const entry = (await store.find({ submissionId: id }))[0]?.entry;
        if (!entry) throw new Error(`no lead ${id} in ${store.where}`);
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
      }),
    );
}

/** `claimsite leads show`: every record held about a person (an access request). */
function registerShow(leads: Command, io: CommandContext['io']) {
  personOptions(
    leads
      .command('show')
      .description('print every record held about a person: the answer to an access request')
      .addOption(outboxOption()),
  ).action((opts: PersonQuery & { outbox: string }) =>
    withStore(opts.outbox, async (store) => {
      const person = personOf(opts);
      const held = await store.find(person);
      const dir = setAsideDir(opts.outbox);
      const aside = dir ? await findInSetAside(dir, person) : [];
      const lines = aside.reduce((n, f) => n + f.lines.length, 0);
      if (held.length === 0 && lines === 0)
        io.out(`Nothing is held about ${named(person)} in ${store.where}.\n`);
      else
        io.out(
          `${count(held.length, 'record', 'records')} held about ${named(person)} in ${store.where}:\n`,
        );
      for (const r of held) io.out(describe(r));
      for (const f of aside) {
        io.out(
          `\n${count(f.lines.length, 'line', 'lines')} in ${f.file}, set aside when an older version's outbox was imported:\n`,
        );
        for (const line of f.lines) io.out(`  ${line}\n`);
      }
      io.out(
        '\nDelivered leads are not kept here (only their ids, for de-duplication): the CRM holds its own copy of each contact.\n',
      );
    }),
  );
}

/** `claimsite leads forget`: every record held about a person deleted (a deletion request). */
function registerForget(leads: Command, io: CommandContext['io']) {
  personOptions(
    leads
      .command('forget')
      .description('delete every record held about a person, after asking: a deletion request')
      .addOption(outboxOption())
      .option('--yes', 'do not ask'),
  ).action((opts: PersonQuery & { outbox: string; yes?: boolean }) =>
    withStore(opts.outbox, async (store) => {
      const person = personOf(opts);
      const held = await store.find(person);
      const dir = setAsideDir(opts.outbox);
      const lines = dir
        ? (await findInSetAside(dir, person)).reduce((n, f) => n + f.lines.length, 0)
        : 0;
      const what = [
        held.length ? `${count(held.length, 'record', 'records')} in ${store.where}` : '',
        lines ? `${count(lines, 'line', 'lines')} in files set aside at an upgrade` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      if (!what) {
        io.out(`Nothing is held about ${named(person)} in ${store.where}.\n`);
        return;
      }
      if (!opts.yes) {
        const answer = await io.ask(
          `Forget ${named(person)}: ${what}? It cannot be undone. [y/N] `,
        );
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.out('Nothing forgotten.\n');
          return;
        }
      }
      const forgotten = await store.forget(person);
      const removed = dir ? await forgetInSetAside(dir, person) : 0;
      const erased = store instanceof SqlLeadStore ? await store.erase() : true;
      io.out(
        `Forgot ${named(person)}: ${count(forgotten, 'record', 'records')}${removed ? ` and ${count(removed, 'set-aside line', 'set-aside lines')}` : ''} deleted.${erased ? '' : ' Another process was reading the database: the deleted bytes leave its write-ahead log at its next checkpoint (within a minute while claimsite serve runs).'} The CRM keeps its own copy of the contact: delete it there too.\n`,
      );
    }),
  );
}

/** When a dead letter is deleted. */
function expiry(deadAt: string, days: number): string {
  return new Date(Date.parse(deadAt) + days * 24 * 60 * 60_000).toISOString().slice(0, 10);
}

/** A held record, every field of it, for an access request. */
function describe(r: HeldRecord): string {
  const head =
    r.kind === 'waiting'
      ? `\nWaiting for the CRM since ${r.entry.receivedAt} (${r.entry.reason}), submission ${r.entry.submissionId}:\n`
      : `\nDead letter: the CRM refused it on ${r.entry.deadAt} (${r.entry.reason}), submission ${r.entry.submissionId}, received ${r.entry.receivedAt}:\n`;
  return head + fields(r.entry.lead);
}

function fields(lead: Lead): string {
  return Object.entries(lead)
    .filter(([, v]) => v !== '' && v !== undefined)
    .map(([k, v]) => `  ${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}\n`)
    .join('');
}
