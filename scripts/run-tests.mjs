// `npm test`: the whole mocha suite; any extra arguments go to mocha (e.g. a spec path or --grep).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mochaBin = require.resolve('mocha/bin/mocha.js');
const result = spawnSync(process.execPath, [mochaBin, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
