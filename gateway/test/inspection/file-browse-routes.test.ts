import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '@klvscope/core';
import { MAX_PATH_LENGTH } from '../../src/inspection/browse-roots.js';
import { startTestServer, type CallResult, type TestServer } from './test-server.js';

/** A file outside every root: its content and size must never show, and it must never be read. */
const SECRET_CONTENT = `TOP-SECRET-${process.pid}-`.padEnd(77_777, 'x');
const SECRET_SIZE = String(SECRET_CONTENT.length);

interface Entry {
  name: string;
  path: string;
  kind: string;
  size: number | null;
  modifiedAt: string;
  isTransportStream: boolean;
}

interface Listing {
  path: string;
  root: string;
  parent: string | null;
  entries: Entry[];
  truncated: boolean;
}

function errorOf(result: CallResult): { code: string; message: string; details?: Record<string, unknown> } {
  return (result.json as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe('inspection service file browsing', function () {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-browse-')));
  const root = join(base, 'recordings');
  const missingRoot = join(base, 'unplugged-disk');
  const outside = join(base, 'outside');
  const secret = join(outside, 'secret.ts');
  const ts188 = generateTransportStream({ durationSeconds: 0.5, bitrate: 1_000_000 }).bytes;
  let server: TestServer;

  before(async () => {
    mkdirSync(join(root, 'flight-a'), { recursive: true });
    mkdirSync(join(root, 'Archive'));
    mkdirSync(outside);
    writeFileSync(secret, SECRET_CONTENT);
    writeFileSync(join(root, 'flight-2.ts'), ts188);
    writeFileSync(join(root, 'flight-10.TS'), ts188.subarray(0, 188 * 10));
    writeFileSync(join(root, 'camera.m2ts'), generateTransportStream({ durationSeconds: 0.2, bitrate: 1_000_000, packetSize: 192 }).bytes);
    writeFileSync(join(root, 'flight-a', 'rs.ts'), generateTransportStream({ durationSeconds: 0.2, bitrate: 1_000_000, packetSize: 204 }).bytes);
    writeFileSync(join(root, 'notes.txt'), 'take-off at 10:02\n');
    writeFileSync(join(root, '.hidden.ts'), ts188.subarray(0, 188));
    symlinkSync(join(root, 'flight-2.ts'), join(root, 'link-in.ts'));
    symlinkSync(secret, join(root, 'link-out.ts'));
    symlinkSync(outside, join(root, 'link-out-folder'));
    symlinkSync(join(root, 'gone.ts'), join(root, 'broken.ts'));
    execFileSync('mkfifo', [join(root, 'pipe.ts')]);
    server = await startTestServer({ defaultSettings: { browseRoots: [root, missingRoot], jobs: { concurrency: 1 }, playback: { tokenTtlSeconds: 3600 }, live: { noDataSeconds: 5, persistSeconds: 5 } } });
  });
  after(async () => {
    await server.close();
  });

  const entries = (body: unknown): Promise<CallResult> => server.call('/system/file-browse/entries', { method: 'POST', body });
  const check = (body: unknown): Promise<CallResult> => server.call('/system/file-check', { method: 'POST', body });

  function expectNothingOfTheSecret(result: CallResult, what: string): void {
    expect(result.text, what).to.not.include('TOP-SECRET');
    expect(result.text, what).to.not.include(SECRET_SIZE);
  }

  it('lists the configured roots, saying which exist', async () => {
    const result = await server.call('/system/file-browse/roots');
    expect(result).to.deep.include({ status: 200, json: { roots: [{ path: root, exists: true }, { path: missingRoot, exists: false }] } });
  });

  it('lists a root: folders first, then files, by name with numbers as numbers; hidden, special and escaping entries left out', async () => {
    const result = await entries({ path: root });
    expect(result.status).to.equal(200);
    const listing = result.json as Listing;
    expect(listing).to.deep.include({ path: root, root, parent: null, truncated: false });
    expect(listing.entries.map((e) => [e.name, e.kind, e.isTransportStream])).to.deep.equal([
      ['Archive', 'folder', false],
      ['flight-a', 'folder', false],
      ['camera.m2ts', 'file', true],
      ['flight-2.ts', 'file', true],
      ['flight-10.TS', 'file', true],
      ['link-in.ts', 'file', true],
      ['notes.txt', 'file', false],
    ]);
    const flight = listing.entries.find((e) => e.name === 'flight-2.ts');
    expect(flight).to.deep.equal({ name: 'flight-2.ts', path: join(root, 'flight-2.ts'), kind: 'file', size: ts188.length, modifiedAt: statSync(join(root, 'flight-2.ts')).mtime.toISOString(), isTransportStream: true });
    // A link inside the roots is listed under its own path, as what it points at.
    expect(listing.entries.find((e) => e.name === 'link-in.ts')).to.deep.include({ path: join(root, 'link-in.ts'), size: ts188.length });
    expect(listing.entries.find((e) => e.name === 'Archive')).to.deep.include({ size: null });
    expectNothingOfTheSecret(result, 'listing');
    expect(result.text).to.not.include(outside);
  });

  it('lists names starting with a dot when asked', async () => {
    const listing = (await entries({ path: root, showHidden: true })).json as Listing;
    expect(listing.entries.map((e) => e.name)).to.include('.hidden.ts');
  });

  it('lists a folder inside a root with its parent', async () => {
    const result = await entries({ path: `${root}/flight-a/` });
    expect(result.json).to.deep.include({ path: join(root, 'flight-a'), parent: root, root });
    expect((result.json as Listing).entries.map((e) => e.name)).to.deep.equal(['rs.ts']);
  });

  it('answers 422 for a browse location that is missing or a file', async () => {
    const missing = await entries({ path: join(root, 'no-such-folder') });
    expect(missing.status).to.equal(422);
    expect(errorOf(missing).code).to.equal('ERR_FILE_NOT_FOUND');
    const file = await entries({ path: join(root, 'notes.txt') });
    expect(file.status).to.equal(422);
    expect(errorOf(file).code).to.equal('ERR_NOT_A_FOLDER');
  });

  describe('confinement to the roots', () => {
    const refusals: Array<[string, string, number, string]> = [
      ['.. out of the root', `${root}/../outside`, 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['.. to the file itself', `${root}/flight-a/../../outside/secret.ts`, 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['an absolute path outside', outside, 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['a system folder', '/etc', 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['a link to a folder outside', join(root, 'link-out-folder'), 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['a link to a file outside', join(root, 'link-out.ts'), 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['a sibling whose name starts like the root', `${root}-old`, 403, 'ERR_FILE_OUTSIDE_ROOTS'],
      ['a NUL byte', `${root}/flight-2.ts\u0000.txt`, 400, 'ERR_INVALID_FIELD'],
      ['a NUL byte before ..', `${root}\u0000/../outside`, 400, 'ERR_INVALID_FIELD'],
      ['a 10 000-character path', `${root}/${'a'.repeat(10_000)}`, 400, 'ERR_INVALID_FIELD'],
      ['a relative path', 'recordings/flight-2.ts', 400, 'ERR_INVALID_FIELD'],
      ['a relative path with ..', '../outside/secret.ts', 400, 'ERR_INVALID_FIELD'],
      ['an empty path', '', 400, 'ERR_INVALID_FIELD'],
    ];

    it('refuses every escape on entries and file-check alike, naming the field', async () => {
      for (const [what, path, status, code] of refusals) {
        for (const [endpoint, field, result] of [
          ['entries', 'path', await entries({ path })],
          ['file-check', 'filePath', await check({ filePath: path })],
        ] as const) {
          expect(result.status, `${endpoint}: ${what}`).to.equal(status);
          expect(errorOf(result).code, `${endpoint}: ${what}`).to.equal(code);
          if (status === 400) expect((errorOf(result).details?.fields as Array<{ in: string; field: string }>)[0], `${endpoint}: ${what}`).to.deep.include({ in: 'body', field });
          expectNothingOfTheSecret(result, `${endpoint}: ${what}`);
        }
      }
    });

    it('never says where a link leads outside the roots', async () => {
      for (const path of [join(root, 'link-out.ts'), join(root, 'link-out-folder')]) {
        const result = await check({ filePath: path });
        expect(result.status).to.equal(403);
        expect(result.text).to.not.include(outside);
      }
    });

    it('refuses a path over the limit before looking at it', async () => {
      const result = await check({ filePath: `/${'b'.repeat(MAX_PATH_LENGTH)}` });
      expect(result.status).to.equal(400);
      expect(errorOf(result).message).to.include(`at most ${MAX_PATH_LENGTH} characters`);
    });

    it('reads nothing outside the roots (its access time stays where it was, while a checked file inside moves)', async function () {
      const control = join(root, 'flight-2.ts');
      const past = new Date('2001-01-01T00:00:00Z');
      const now = new Date();
      for (const path of [secret, control]) utimesSync(path, past, now);
      for (const [, path] of refusals) {
        await entries({ path });
        await check({ filePath: path });
      }
      await entries({ path: root });
      await check({ filePath: control });
      if (statSync(control).atimeMs === past.getTime()) {
        // A file system mounted noatime never moves access times: nothing to prove with them here.
        this.skip();
      }
      expect(statSync(secret).atimeMs).to.equal(past.getTime());
    });
  });

  describe('file-check', () => {
    it('says a generated transport stream is MPEG-TS with 188-byte packets', async () => {
      const path = join(root, 'flight-2.ts');
      const result = await check({ filePath: path });
      expect(result).to.deep.include({
        status: 200,
        json: { path, exists: true, isFile: true, readable: true, size: ts188.length, modifiedAt: statSync(path).mtime.toISOString(), packetSize: 188, isTransportStream: true, problem: null },
      });
    });

    it('finds 192-byte (M2TS) and 204-byte packets, and follows a link inside the roots', async () => {
      expect((await check({ filePath: join(root, 'camera.m2ts') })).json).to.deep.include({ packetSize: 192, isTransportStream: true });
      expect((await check({ filePath: join(root, 'flight-a', 'rs.ts') })).json).to.deep.include({ packetSize: 204, isTransportStream: true });
      expect((await check({ filePath: join(root, 'link-in.ts') })).json).to.deep.include({ path: join(root, 'flight-2.ts'), packetSize: 188 });
    });

    it('names the problem the analysis would meet: not MPEG-TS, not a file, missing', async () => {
      expect((await check({ filePath: join(root, 'notes.txt') })).json).to.deep.include({ exists: true, isFile: true, readable: true, packetSize: null, isTransportStream: false });
      expect(((await check({ filePath: join(root, 'notes.txt') })).json as { problem: { code: string } }).problem.code).to.equal('ERR_NOT_TRANSPORT_STREAM');
      const folder = (await check({ filePath: join(root, 'flight-a') })).json as { exists: boolean; isFile: boolean; problem: { code: string } };
      expect([folder.exists, folder.isFile, folder.problem.code]).to.deep.equal([true, false, 'ERR_NOT_A_FILE']);
      const fifo = (await check({ filePath: join(root, 'pipe.ts') })).json as { isFile: boolean; problem: { code: string } };
      expect([fifo.isFile, fifo.problem.code]).to.deep.equal([false, 'ERR_NOT_A_FILE']);
      const missing = await check({ filePath: join(root, 'flight-a', 'later.ts') });
      expect(missing.status).to.equal(200);
      expect(missing.json).to.deep.include({ exists: false, isFile: false, readable: false, size: null, modifiedAt: null });
      expect((missing.json as { problem: { code: string } }).problem.code).to.equal('ERR_FILE_NOT_FOUND');
      expect(((await check({ filePath: join(root, 'broken.ts') })).json as { problem: { code: string } }).problem.code).to.equal('ERR_FILE_NOT_FOUND');
    });

    it('says a file it may not open is unreadable', async function () {
      if (process.getuid?.() === 0) {
        // root opens any file: permissions cannot make one unreadable here.
        this.skip();
      }
      const path = join(root, 'locked.ts');
      writeFileSync(path, ts188.subarray(0, 188 * 5));
      chmodSync(path, 0o000);
      try {
        const result = (await check({ filePath: path })).json as { exists: boolean; readable: boolean; problem: { code: string } };
        expect([result.exists, result.readable, result.problem.code]).to.deep.equal([true, false, 'ERR_FILE_UNREADABLE']);
      } finally {
        chmodSync(path, 0o644);
      }
    });
  });

  it('needs the API key on every browsing endpoint', async () => {
    expect((await server.call('/system/file-browse/roots', { key: null })).status).to.equal(401);
    expect((await server.call('/system/file-browse/entries', { method: 'POST', key: null, body: { path: root } })).status).to.equal(401);
    expect((await server.call('/system/file-check', { method: 'POST', key: null, body: { filePath: join(root, 'flight-2.ts') } })).status).to.equal(401);
  });
});

describe('file browsing of a data folder made a browse root', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    // The data folder itself as the only root, as a user might set it to browse its recordings.
    const patched = await server.call('/config', { method: 'PATCH', body: { browseRoots: [server.dataDir] } });
    expect(patched.status).to.equal(200);
  });
  after(async () => {
    await server.close();
  });

  it('does not list the service\'s own secrets: the API key file and the stream credentials', async () => {
    writeFileSync(join(server.dataDir, 'stream-credentials'), 'user:password\n');
    const roots = await server.call('/system/file-browse/roots');
    expect(roots.json).to.deep.equal({ roots: [{ path: server.dataDir, exists: true }] });
    const listed = await server.call('/system/file-browse/entries', { method: 'POST', body: { path: server.dataDir, showHidden: true } });
    expect(listed.status).to.equal(200);
    const names = (listed.json as { entries: Array<{ name: string }> }).entries.map((entry) => entry.name);
    expect(names.filter((name) => ['api-key', 'stream-credentials', 'licence.token', 'vendor-private.pem'].includes(name))).to.deep.equal([]);
    expect(names.length).to.be.greaterThan(0);
  });
});
