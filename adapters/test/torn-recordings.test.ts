import { expect } from 'chai';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trimTornRecordings } from '../src/torn-recordings.js';

describe('mending recordings a killed recorder left', () => {
  it('cuts a .ts file that ends inside a packet back to its whole packets, and leaves whole files, other files and recent files alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'klvscope-torn-'));
    const bytes = (length: number): Buffer => Buffer.alloc(length, 0x47);
    const old = Date.now() / 1000 - 60;
    const files = { torn: 'a.ts', whole: 'b.ts', recent: 'c.ts', other: 'd.txt' };
    writeFileSync(join(folder, files.torn), bytes(3 * 188 + 50));
    writeFileSync(join(folder, files.whole), bytes(2 * 188));
    writeFileSync(join(folder, files.recent), bytes(188 + 7));
    writeFileSync(join(folder, files.other), bytes(99));
    for (const name of [files.torn, files.whole, files.other]) utimesSync(join(folder, name), old, old);
    expect(await trimTornRecordings(folder)).to.deep.equal([join(folder, files.torn)]);
    expect(readFileSync(join(folder, files.torn)).length).to.equal(3 * 188);
    expect(readFileSync(join(folder, files.whole)).length).to.equal(2 * 188);
    expect(readFileSync(join(folder, files.recent)).length).to.equal(188 + 7);
    expect(readFileSync(join(folder, files.other)).length).to.equal(99);
  });
});
