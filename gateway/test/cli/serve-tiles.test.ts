/**
 * `klvscope serve --tiles PATH` as a person runs it: the banner names the
 * tiles, the service answers them at /tiles/{z}/{x}/{y}, and a path that is
 * no tile folder or MBTiles file stops the command with exit code 2.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMbtilesOver } from '../../../test-support/map-tiles.js';
import { tempDataDir } from '../inspection/test-server.js';
import { runCli } from './run-cli.js';
import { startService } from './service-process.js';

describe('klvscope serve --tiles', function () {
  this.timeout(30_000);
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'klvscope-serve-tiles-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('serves the tiles of an MBTiles file and names it in the banner', async () => {
    const file = join(work, 'area.mbtiles');
    const [tile] = await writeMbtilesOver(file, { west: 10, south: 50, east: 10.05, north: 50.05, minZoom: 9, maxZoom: 9 });
    const server = await startService(['serve', '--data-dir', tempDataDir(), '--port', '0', '--tiles', file], /on (http:\/\/\S+\/api\/v1)/, 'Ctrl+C');
    try {
      expect(server.stdout()).to.include(`map tiles  ${file}`);
      const origin = server.url.replace(/\/api\/v1$/, '');
      const answer = await fetch(`${origin}/tiles/${tile.z}/${tile.x}/${tile.y}`);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('content-type')).to.equal('image/png');
      expect(await (await fetch(`${origin}/tiles`)).json()).to.deep.include({ tiles: ['/tiles/{z}/{x}/{y}'], minzoom: 9, maxzoom: 9 });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).to.equal(0);
  });

  it('refuses a path that is neither a tile folder nor an MBTiles file: exit 2 naming it', () => {
    const missing = join(work, 'no-such-tiles');
    const result = runCli(['serve', '--data-dir', tempDataDir(), '--port', '0', '--tiles', missing]);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.match(/^klvscope: /).and.to.include(missing);
  });
});
