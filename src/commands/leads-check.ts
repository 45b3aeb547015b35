import type { Command } from 'commander';
import { checkCrmSetup } from '../lead/setup-check.js';
import type { CommandContext } from './context.js';

/**
 * `claimsite leads check [--fix]`: whether GoHighLevel will take the leads, with the environment
 * the endpoint would use, before a real lead finds out. Exit 1 naming each variable or field to
 * fix, 0 when all is ready.
 */
export function registerLeadsCheck(
  leads: Command,
  { io, setExitCode }: Pick<CommandContext, 'io' | 'setExitCode'>,
) {
  leads
    .command('check')
    .description(
      'check the CRM setup the lead endpoint would use: token, location, scopes, custom fields (changes nothing)',
    )
    .option('--fix', 'create the custom fields the location lacks')
    .action(async (opts: { fix?: boolean }) => {
      const findings = await checkCrmSetup(process.env, { fix: opts.fix });
      for (const f of findings) io.out(`  ${f.ok ? 'ok ' : 'FIX'}  ${f.text}\n`);
      const wrong = findings.filter((f) => !f.ok).length;
      if (wrong === 0) {
        io.out('Ready: GoHighLevel will take the leads as the endpoint sends them.\n');
        return;
      }
      io.out(`${wrong} ${wrong === 1 ? 'thing' : 'things'} to fix before leads reach the CRM.\n`);
      setExitCode(1);
    });
}
