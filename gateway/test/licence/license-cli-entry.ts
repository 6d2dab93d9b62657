/**
 * A stand-in for the `klvscope` entry with only the license command, so its
 * tests run the command in a real process before main.ts registers it.
 * Mirrors main.ts's exit codes: commander and usage errors exit with 2.
 */
import { Command, CommanderError } from 'commander';
import { registerLicenseCommand } from '../../src/cli/license-command.js';
import { UsageError } from '../../src/cli/usage-error.js';

const program = new Command('klvscope').exitOverride().configureOutput({ outputError: () => undefined });
registerLicenseCommand(program);
try {
  await program.parseAsync(process.argv.slice(2), { from: 'user' });
} catch (error) {
  if (error instanceof CommanderError) {
    if (error.exitCode !== 0) process.stderr.write(`klvscope: ${error.message}\n`);
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UsageError) {
    process.stderr.write(`klvscope: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
