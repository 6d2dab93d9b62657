// Generates a benchmark stream once and keeps it in .bench-cache/, named by
// its parameters and the generator's package version so a change regenerates it.
import { createWriteStream, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGenerator } from '@klvscope/core';

const coreVersion = JSON.parse(readFileSync(new URL('../core/package.json', import.meta.url), 'utf8')).version;

export async function ensureStream(dir, name, options, tag = '') {
  const key = `${name}-${options.durationSeconds}s-${options.bitrate}bps-v${coreVersion}${tag ? `-${tag}` : ''}`;
  const path = join(dir, `${key}.ts`);
  if (existsSync(path)) return path;
  process.stderr.write(`generating ${path} ...\n`);
  const started = Date.now();
  const temp = `${path}.partial`;
  const out = createWriteStream(temp);
  const stream = createGenerator({ seed: 1, audio: true, ...options });
  for (const chunk of stream.chunks()) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(temp, path);
  process.stderr.write(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return path;
}
