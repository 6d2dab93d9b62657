// The inspection service as the benchmarks start it: the installed command
// (gateway/bin/klvscope.cjs) running `serve` on a data folder, on 127.0.0.1 at a port the
// system picks, with a client that calls its REST surface with the folder's API key.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const KLVSCOPE = join(dirname(fileURLToPath(import.meta.url)), '..', 'gateway', 'bin', 'klvscope.cjs');

/**
 * Starts the service and waits for its URL. `stderr` is where its log goes ('ignore' keeps
 * its licence notice out of a report); `args` are more options of `serve` (`--catalog URL`). `call(method, path, body)` answers the parsed JSON of
 * a 2xx response and throws on any other; `stop()` ends the service with SIGTERM.
 */
export async function startService(dataDir, { stderr = 'ignore', args = [] } = {}) {
  const server = spawn(process.execPath, ['--v8-pool-size=0', KLVSCOPE, 'serve', '--data-dir', dataDir, '--port', '0', ...args], { stdio: ['ignore', 'pipe', stderr] });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const base = await baseUrlOf(server);
  const key = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
  const call = async (method, path, body) => {
    const headers = body === undefined ? { 'x-api-key': key } : { 'x-api-key': key, 'content-type': 'application/json' };
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const stop = async () => {
    server.kill('SIGTERM');
    await exited;
  };
  return { server, base, key, call, stop };
}

/** The base URL `klvscope serve` prints on its first line. */
function baseUrlOf(server) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.once('line', (line) => {
      const url = /on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) resolve(url);
      else reject(new Error(`unexpected first line from klvscope serve: ${line}`));
    });
    server.once('exit', (code) => reject(new Error(`klvscope serve exited with ${code}`)));
  });
}
