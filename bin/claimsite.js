#!/usr/bin/env node
// Thin entry: the CLI is compiled to lib/ by `npm run build` (run on install by `prepare`).
import { main } from '../lib/cli.js';

process.exitCode = await main(process.argv.slice(2));
