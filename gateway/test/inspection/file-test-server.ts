/**
 * A test server whose browse roots are a fresh temporary folder (where the
 * tests write generated recordings) and the shared fixtures, with helpers to
 * write generated streams there and to wait for jobs.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, type GeneratorOptions, type InjectedFault } from '@klvscope/core';
import { fixturesDir } from '../../../test-support/fixtures.js';
import { defaultSettings } from '../../src/inspection/inspection-settings.js';
import { startTestServer, type TestServer } from './test-server.js';

export interface FileTestServer extends TestServer {
  /** A browse root the tests write into (resolved); removed with its recordings when the server closes. */
  root: string;
}

export async function startFileTestServer(): Promise<FileTestServer> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-recordings-')));
  const server = await startTestServer({ defaultSettings: { ...defaultSettings(root), browseRoots: [root, fixturesDir] } });
  const close = async (): Promise<void> => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  };
  return { ...server, root, close };
}

/** Starts a file test server before the suite's tests and closes it after them; `use` receives it. */
export function fileTestServerForSuite(use: (server: FileTestServer) => void): void {
  let server: FileTestServer | undefined;
  before(async () => {
    server = await startFileTestServer();
    use(server);
  });
  after(async () => {
    await server?.close();
  });
}

/** Writes a generated stream into the folder; its path and the ground truth of its faults. */
export function writeGenerated(folder: string, name: string, options: GeneratorOptions): { path: string; faults: InjectedFault[]; size: number } {
  const { bytes, faults } = generateTransportStream(options);
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return { path, faults, size: bytes.length };
}

export interface JobBody {
  id: string;
  kind: string;
  subject: string;
  status: string;
  progress: { bytesDone: number; bytesTotal: number | null };
  error: { code: string; message: string } | null;
  result: Record<string, unknown> | null;
}

/** Polls a job until it has finished; every progress seen on the way comes with it. */
export async function finishedJob(server: TestServer, path: string): Promise<{ job: JobBody; seen: JobBody['progress'][] }> {
  const seen: JobBody['progress'][] = [];
  for (;;) {
    const answer = await server.call(path);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
    const job = answer.json as JobBody;
    seen.push(job.progress);
    if (['completed', 'failed', 'cancelled'].includes(job.status)) return { job, seen };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
