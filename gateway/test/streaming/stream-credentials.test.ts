import { expect } from 'chai';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rejectionOf } from '../../../test-support/thrown.js';
import { CREDENTIALS_FILE_NAME, resolveStreamCredentials } from '../../src/streaming/stream-credentials.js';
import { tempFolder } from './temp-folder.js';

describe('the credentials of the streaming module', () => {
  it('are generated at first start into a file readable by its owner only, and read back the same after', async () => {
    const dir = tempFolder('stream-credentials');
    const first = await resolveStreamCredentials(dir, {}, {});
    const path = join(dir, CREDENTIALS_FILE_NAME);
    expect(first).to.deep.include({ source: 'file', filePath: path, created: true, user: 'operator' });
    expect(first.password).to.have.length.greaterThan(20);
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    expect(readFileSync(path, 'utf8')).to.equal(`operator:${first.password}\n`);
    const again = await resolveStreamCredentials(dir, {}, {});
    expect(again).to.deep.include({ created: false, user: 'operator', password: first.password });
  });

  it('come from the configuration first, then from the environment (both variables), and no file is made', async () => {
    const dir = tempFolder('stream-credentials');
    const env = { KLVSCOPE_STREAM_USER: 'env-user', KLVSCOPE_STREAM_PASSWORD: 'env-pass' };
    expect(await resolveStreamCredentials(dir, { user: 'cfg', password: 'cfg-pass' }, env)).to.deep.include({ source: 'configuration', user: 'cfg', password: 'cfg-pass' });
    expect(await resolveStreamCredentials(dir, {}, env)).to.deep.include({ source: 'environment', user: 'env-user', password: 'env-pass' });
    expect(() => statSync(join(dir, CREDENTIALS_FILE_NAME))).to.throw();
  });

  it('refuse a file others can read, one without a user:password line, and a password with a space', async () => {
    const dir = tempFolder('stream-credentials');
    const path = join(dir, CREDENTIALS_FILE_NAME);
    writeFileSync(path, 'operator:secret\n', { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(((await rejectionOf(resolveStreamCredentials(dir, {}, {}))) as { code: string }).code).to.equal('ERR_CREDENTIALS_FILE_UNUSABLE');
    chmodSync(path, 0o600);
    writeFileSync(path, 'no colon here\n');
    expect(((await rejectionOf(resolveStreamCredentials(dir, {}, {}))) as { code: string }).code).to.equal('ERR_CREDENTIALS_FILE_UNUSABLE');
    expect(((await rejectionOf(resolveStreamCredentials(dir, { user: 'a', password: 'with space' }, {}))) as { code: string }).code).to.equal('ERR_STREAM_CONFIG_INVALID');
  });
});
