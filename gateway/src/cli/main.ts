/**
 * The `klvscope` command line run from its TypeScript sources (through tsx,
 * as the tests do). The installed command, gateway/bin/klvscope.cjs, runs the
 * bundle of run-cli.ts that `npm run build` makes.
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2));
