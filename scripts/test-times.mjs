// Writes the slowest twenty test files of the last `npm test` (Vitest's JSON report, written by
// vitest.config.ts) into docs/tests.md between its markers, and prints them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const REPORT = 'node_modules/.cache/claimsite-tests/last-run.json';
const DOC = 'docs/tests.md';
const BEGIN = '<!-- slowest-tests:begin -->';
const END = '<!-- slowest-tests:end -->';

const report = JSON.parse(readFileSync(REPORT, 'utf8'));
const files = report.testResults
  .map((f) => ({
    file: path.relative(process.cwd(), f.name),
    seconds: (f.endTime - f.startTime) / 1000,
    tests: f.assertionResults.length,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const wall = (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;
const day = new Date(report.startTime).toISOString().slice(0, 10);
const rows = files
  .slice(0, 20)
  .map((f) => `| \`${f.file}\` | ${f.tests} | ${f.seconds.toFixed(1)} |`);
const table = [
  BEGIN,
  `The slowest twenty of ${files.length} files in the run of ${day} (${report.numTotalTests} tests,`,
  `${(wall / 60).toFixed(1)} minutes of Vitest; a file's time is from its start to its end, with`,
  'other files running beside it). Written by `npm run test:times` from the last run.',
  '',
  '| File | Tests | Seconds |',
  '| --- | ---: | ---: |',
  ...rows,
  END,
].join('\n');
const doc = readFileSync(DOC, 'utf8');
const at = doc.indexOf(BEGIN);
const next =
  at < 0
    ? `${doc.trimEnd()}\n\n## The slowest files\n\n${table}\n`
    : doc.slice(0, at) + table + doc.slice(doc.indexOf(END) + END.length);
writeFileSync(DOC, next);
console.log(table);
