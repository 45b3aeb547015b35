import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliDocs } from '../src/cli.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the CLI reference', () => {
  const { reference, synopsis } = cliDocs();

  it('in docs/cli.md is what the commands define (npm run docs:cli writes it)', async () => {
    expect(await readFile(path.join(ROOT, 'docs/cli.md'), 'utf8')).toBe(reference);
  });

  it("in the README's synopsis is what the commands define", async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const block = /<!-- cli-synopsis: npm run docs:cli -->\n```\n([\s\S]*?)\n```/.exec(readme);
    expect(block?.[1]).toBe(synopsis);
  });

  it('names every command, each option with its default, and no hidden one', () => {
    for (const line of [
      'claimsite generate [--data <dir>] [--out dist]',
      'claimsite leads report [--outbox .outbox/leads.db] [--since 30d] [--by source | city | claim | week]',
      'claimsite deploy <host> [--dir .]',
      'claimsite init <dir> [--empty] [--claimsite <spec>]',
    ])
      expect(synopsis).toContain(line);
    expect(synopsis).not.toContain('build-server');
    expect(reference).toContain('## claimsite leads forget');
    // Nothing of this machine or this day: the text is the same wherever it is generated.
    expect(reference).not.toMatch(/\/work\/|\/tmp\/|\/root\/|\d{4}-\d\d-\d\dT/);
    for (const line of synopsis.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });
});
