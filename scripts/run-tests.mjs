// `npm test`: the whole mocha suite, or the spec paths/globs given as arguments
// (e.g. npm test -- 'core/test/ts/**/*.test.ts'); other arguments go to mocha too.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const ALL = [...['core', 'rules', 'plugins', 'adapters', 'gateway', 'web'].map((p) => `${p}/test/**/*.test.ts`), 'plugins/examples/**/*.test.ts'];
const require = createRequire(import.meta.url);
const mochaBin = require.resolve('mocha/bin/mocha.js');
const args = process.argv.slice(2);
const hasSpec = args.some((a) => !a.startsWith('-'));
const result = spawnSync(process.execPath, [mochaBin, ...args, ...(hasSpec ? [] : ALL)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
