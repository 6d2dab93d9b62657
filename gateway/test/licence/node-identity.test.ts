import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LicenceError, NODE_ID_FILE_NAME, generateNodeId, loadNodeId } from '../../src/licence/index.js';

describe('node identity', () => {
  const root = mkdtempSync(join(tmpdir(), 'klvscope-node-id-'));
  let folderCount = 0;
  const freshFolder = (): string => join(root, `data-${(folderCount += 1)}`);

  it('creates the data folder and a node id of 128 random bits', async () => {
    const dataDir = freshFolder();
    const nodeId = await loadNodeId(dataDir);
    expect(nodeId).to.match(/^node-[0-9a-f]{32}$/);
    expect(readFileSync(join(dataDir, NODE_ID_FILE_NAME), 'utf8')).to.equal(`${nodeId}\n`);
  });

  it('returns the same id on every later load of the same folder', async () => {
    const dataDir = freshFolder();
    const first = await loadNodeId(dataDir);
    expect(await loadNodeId(dataDir)).to.equal(first);
    expect(await loadNodeId(dataDir)).to.equal(first);
  });

  it('gives different folders different ids', async () => {
    expect(await loadNodeId(freshFolder())).to.not.equal(await loadNodeId(freshFolder()));
    expect(generateNodeId()).to.not.equal(generateNodeId());
  });

  it('writes the file readable by all and writable by the owner only, whatever the umask', async function () {
    if (process.platform === 'win32') this.skip();
    const dataDir = freshFolder();
    const previous = process.umask(0o077);
    try {
      await loadNodeId(dataDir);
    } finally {
      process.umask(previous);
    }
    expect(statSync(join(dataDir, NODE_ID_FILE_NAME)).mode & 0o777).to.equal(0o644);
  });

  it('agrees on one id when many loads race on a new folder, and leaves no temporary files', async () => {
    const dataDir = freshFolder();
    const ids = await Promise.all(Array.from({ length: 20 }, () => loadNodeId(dataDir)));
    expect(new Set(ids).size).to.equal(1);
    expect(readdirSync(dataDir)).to.deep.equal([NODE_ID_FILE_NAME]);
  });

  it('reads an id written by hand with surrounding white space', async () => {
    const dataDir = freshFolder();
    await loadNodeId(dataDir);
    writeFileSync(join(dataDir, NODE_ID_FILE_NAME), '  node-00000000000000000000000000000001 \r\n');
    expect(await loadNodeId(dataDir)).to.equal('node-00000000000000000000000000000001');
  });

  it('refuses a damaged node-id file with ERR_NODE_ID_INVALID and leaves it for the operator', async () => {
    const dataDir = freshFolder();
    await loadNodeId(dataDir);
    const path = join(dataDir, NODE_ID_FILE_NAME);
    for (const content of ['', 'node-xyz', 'NODE-0123456789ABCDEF0123456789ABCDEF', 'node-0123456789abcdef0123456789abcdef0']) {
      writeFileSync(path, content);
      const error = await loadNodeId(dataDir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(content)).to.be.instanceOf(LicenceError).with.property('code', 'ERR_NODE_ID_INVALID');
      expect(readFileSync(path, 'utf8')).to.equal(content);
    }
  });
});
