#!/usr/bin/env node
// Thin entry: the CLI is compiled to lib/ by `npm run build` (run on install by `prepare`).
// React's development build is many times slower and adds nothing to static output, so the
// production build is chosen before React loads (an explicit NODE_ENV still wins).
process.env.NODE_ENV ??= 'production';
const { main } = await import('../lib/cli.js');

process.exitCode = await main(process.argv.slice(2));
