/**
 * `--tiles` on a real inspection service (127.0.0.1, a free port): a tile
 * folder (PNG and JPEG tiles) and an MBTiles file (rows in TMS order) served
 * at /tiles/{z}/{x}/{y} with their image types, the TileJSON at /tiles, the
 * project's error body for a missing tile and for coordinates off the grid,
 * and no way out of the folder. The tiles are made here (node:zlib PNGs,
 * an ffmpeg JPEG, sql.js for the MBTiles file): no internet.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInspectionServer, type RunningInspectionServer } from '../../src/inspection/inspection-server.js';
import { mapTilesOf, type ServedMapTiles } from '../../src/http/map-tile-routes.js';
import { openMapTiles } from '../../src/http/map-tiles.js';
import { ffmpegOrSkip } from '../../../test-support/ffmpeg-clips.js';
import { tilePng, writeMbtiles, writeTileFolder } from '../../../test-support/map-tiles.js';

interface Served {
  server: RunningInspectionServer;
  tiles: ServedMapTiles | null;
  origin: string;
}

async function serve(dataDir: string, tilesPath: string | null): Promise<Served> {
  const tiles = tilesPath === null ? null : await mapTilesOf(tilesPath);
  const server = await startInspectionServer({ dataDir, port: 0, env: {}, log: { level: 'silent' }, apiKey: 'map-tiles-test-key-0123456789abcdef', mapTiles: tiles });
  return { server, tiles, origin: server.url.replace(/\/api\/v1$/, '') };
}

async function stop(served: Served | undefined): Promise<void> {
  await served?.server.close();
  served?.tiles?.local?.close();
}

/** GET without the API key: the tiles are public, as the pages' files are. */
type JsonAnswer = { error?: { code: string; message: string } } & Record<string, unknown>;

async function get(origin: string, path: string): Promise<{ status: number; type: string | null; bytes: Buffer; json: () => JsonAnswer }> {
  const response = await fetch(`${origin}${path}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes, json: () => JSON.parse(bytes.toString('utf8')) as JsonAnswer };
}

describe('map tiles of --tiles (GET /tiles, /tiles/{z}/{x}/{y})', function () {
  this.timeout(30_000);
  let work: string;
  let jpeg: Buffer;

  before(function () {
    const ffmpeg = ffmpegOrSkip(this);
    work = mkdtempSync(join(tmpdir(), 'klvscope-map-tiles-'));
    const made = spawnSync(ffmpeg, ['-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=0x336699:s=256x256', '-frames:v', '1', '-y', join(work, 'tile.jpg')]);
    expect(made.status, made.stderr.toString()).to.equal(0);
    jpeg = readFileSync(join(work, 'tile.jpg'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('a tile folder', () => {
    let served: Served;
    let folder: string;
    let deepest: { z: number; x: number; y: number };

    before(async () => {
      folder = join(work, 'folder');
      const written = writeTileFolder(folder, { west: -86.7, south: 34.69, east: -86.66, north: 34.73, minZoom: 2, maxZoom: 12 });
      deepest = written[written.length - 1];
      mkdirSync(join(folder, '1', '0'), { recursive: true });
      writeFileSync(join(folder, '1', '0', '1.jpg'), jpeg);
      // What a path out of the folder would reach.
      writeFileSync(join(work, 'secret.png'), 'not for the browser');
      served = await serve(join(work, 'data-folder'), folder);
    });
    after(() => stop(served));

    it('describes the tiles as TileJSON, the zooms from the folder', async () => {
      const answer = await get(served.origin, '/tiles');
      expect(answer.status).to.equal(200);
      expect(answer.json()).to.deep.include({ tilejson: '3.0.0', tiles: ['/tiles/{z}/{x}/{y}'], minzoom: 1, maxzoom: 12, scheme: 'xyz', source: 'folder' });
    });

    it('serves a PNG tile and a JPEG tile byte for byte with their image types, without the API key', async () => {
      const tile = (await openMapTiles(folder)).describe();
      expect(tile.kind).to.equal('folder');
      const { z, x, y } = deepest;
      expect(z).to.equal(12);
      const png = await get(served.origin, `/tiles/${z}/${x}/${y}`);
      expect(png.status).to.equal(200);
      expect(png.type).to.equal('image/png');
      expect(png.bytes.equals(readFileSync(join(folder, String(z), String(x), `${y}.png`)))).to.equal(true);
      const withExtension = await get(served.origin, `/tiles/${z}/${x}/${y}.png`);
      expect(withExtension.bytes.equals(png.bytes)).to.equal(true);
      const jpg = await get(served.origin, '/tiles/1/0/1');
      expect(jpg.status).to.equal(200);
      expect(jpg.type).to.equal('image/jpeg');
      expect(jpg.bytes.equals(jpeg)).to.equal(true);
    });

    it('answers 404 with the error body for a tile the folder lacks', async () => {
      const answer = await get(served.origin, '/tiles/12/0/0');
      expect(answer.status).to.equal(404);
      expect(answer.type).to.match(/^application\/json/);
      expect(answer.json().error?.code).to.equal('ERR_TILE_NOT_FOUND');
    });

    it('answers 400 for coordinates that are not whole numbers or lie off the grid of their zoom', async () => {
      for (const path of ['/tiles/a/0/0', '/tiles/2/4/0', '/tiles/2/0/4', '/tiles/31/0/0', '/tiles/2/-1/0', '/tiles/2/1/1.gif', '/tiles/2/1.5/1']) {
        const answer = await get(served.origin, path);
        expect(answer.status, path).to.equal(400);
        expect(answer.json().error?.code, path).to.equal('ERR_TILE_COORDINATES_INVALID');
      }
    });

    it('never reaches a file outside the folder', async () => {
      for (const path of ['/tiles/..%2F..%2Fsecret.png/0/0', '/tiles/1/..%2F..%2F..%2F/secret', '/tiles/%2E%2E/%2E%2E/secret', '/tiles/../../secret.png', '/tiles/1/0/..%2F..%2F..%2Fsecret']) {
        const answer = await get(served.origin, path);
        expect(answer.status, path).to.be.oneOf([400, 404]);
        expect(answer.bytes.toString('utf8'), path).not.to.contain('not for the browser');
      }
    });
  });

  describe('an MBTiles file', () => {
    let served: Served;
    const north = tilePng([200, 40, 40]);
    const south = tilePng([40, 40, 200]);

    before(async () => {
      const file = join(work, 'area.mbtiles');
      // Zoom 1, column 0: XYZ y 0 is the northern tile, TMS row 1.
      await writeMbtiles(file, [
        { z: 1, x: 0, y: 0, bytes: north },
        { z: 1, x: 0, y: 1, bytes: south },
        { z: 3, x: 2, y: 5, bytes: jpeg },
      ], { bounds: '-180,-85,0,85' });
      served = await serve(join(work, 'data-mbtiles'), file);
    });
    after(() => stop(served));

    it('reads the rows in TMS order: XYZ y 0 is the northern tile', async () => {
      const northern = await get(served.origin, '/tiles/1/0/0');
      const southern = await get(served.origin, '/tiles/1/0/1');
      expect(northern.status).to.equal(200);
      expect(northern.type).to.equal('image/png');
      expect(northern.bytes.equals(north)).to.equal(true);
      expect(southern.bytes.equals(south)).to.equal(true);
    });

    it('gives a JPEG row its image type, from its bytes', async () => {
      const answer = await get(served.origin, '/tiles/3/2/5');
      expect(answer.status).to.equal(200);
      expect(answer.type).to.equal('image/jpeg');
      expect(answer.bytes.equals(jpeg)).to.equal(true);
    });

    it('describes the file (zooms from its rows, bounds from its metadata) and answers 404 and 400 as for a folder', async () => {
      expect((await get(served.origin, '/tiles')).json()).to.deep.include({ tiles: ['/tiles/{z}/{x}/{y}'], minzoom: 1, maxzoom: 3, bounds: [-180, -85, 0, 85], source: 'mbtiles' });
      const missing = await get(served.origin, '/tiles/3/2/2');
      expect(missing.status).to.equal(404);
      expect(missing.json().error?.code).to.equal('ERR_TILE_NOT_FOUND');
      expect((await get(served.origin, '/tiles/1/2/0')).status).to.equal(400);
    });
  });

  it('names a tile URL given instead of a path, and says so when there are no tiles', async () => {
    const url = 'https://tiles.example.org/{z}/{x}/{y}.png';
    const remote = await serve(join(work, 'data-url'), url);
    try {
      expect((await get(remote.origin, '/tiles')).json()).to.deep.include({ tiles: [url] });
      expect((await get(remote.origin, '/tiles/1/0/0')).json().error?.code).to.equal('ERR_TILE_NOT_FOUND');
    } finally {
      await stop(remote);
    }
    const none = await serve(join(work, 'data-none'), null);
    try {
      const answer = await get(none.origin, '/tiles');
      expect(answer.status).to.equal(404);
      expect(answer.json().error?.code).to.equal('ERR_MAP_TILES_NOT_CONFIGURED');
    } finally {
      await stop(none);
    }
  });

  it('refuses a path that is neither a tile folder nor an MBTiles file', async () => {
    writeFileSync(join(work, 'notes.txt'), 'not a database at all, just some text that is long enough');
    mkdirSync(join(work, 'empty-folder'), { recursive: true });
    for (const path of [join(work, 'no-such-thing'), join(work, 'notes.txt'), join(work, 'empty-folder')]) {
      const error = await mapTilesOf(path).then(
        () => null,
        (caught: unknown) => caught as { code?: string },
      );
      expect(error?.code, path).to.equal('ERR_MAP_TILES_UNUSABLE');
    }
  });
});
