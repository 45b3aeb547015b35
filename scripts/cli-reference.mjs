// Writes the CLI reference from the commands' own definitions: docs/cli.md whole, and the
// README's synopsis between its two markers. tests/cli-reference.test.ts checks both are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { cliDocs } = createRequire(import.meta.url)(path.join(root, 'lib/cli.cjs'));
const { reference, synopsis } = cliDocs();
writeFileSync(path.join(root, 'docs/cli.md'), reference);

const readme = path.join(root, 'README.md');
const text = readFileSync(readme, 'utf8');
const block = /(<!-- cli-synopsis: npm run docs:cli -->\n```\n)[\s\S]*?(\n```)/;
if (!block.test(text)) throw new Error('README.md: the CLI synopsis markers are missing');
writeFileSync(
  readme,
  text.replace(block, (_, open, close) => `${open}${synopsis}${close}`),
);
console.log('docs/cli.md and the README synopsis written');
