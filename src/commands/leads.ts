import { type Command, Option } from 'commander';
import { configFromEnv } from '../lead/config.js';
import { drain } from '../lead/delivery.js';
import { FileLeadStore } from '../lead/file-store.js';
import { createLeadService } from '../lead/handler.js';
import { displayPath } from '../site/display-path.js';
import { type CommandContext, parsePath } from './context.js';
import { registerLeadsCheck } from './leads-check.js';

/** `claimsite leads ...`: the leads not yet delivered to the CRM. */
export function registerLeads(program: Command, { io, setExitCode }: CommandContext) {
  const leads = program
    .command('leads')
    .description('leads not yet delivered to the CRM: waiting, and refused for good');
  registerLeadsCheck(leads, { io, setExitCode });
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
      if (r.waiting > 0) setExitCode(1);
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
}
