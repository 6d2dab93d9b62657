/**
 * `klvscope stream --tiles FOLDER`: the streaming module serves the folder's
 * tiles at /tiles/{z}/{x}/{y} (the inspection service's route, the same
 * errors) and tells each viewer, in its hello, to draw them.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { StreamHelloMessage } from '@klvscope/core';
import { mapTilesOf, LOCAL_TILE_URL, type ServedMapTiles } from '../../src/http/map-tile-routes.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { writeTileFolder } from '../../../test-support/map-tiles.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

describe('the streaming module with local map tiles', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | undefined;
  let tiles: ServedMapTiles | undefined;

  after(async () => {
    await server?.close();
    tiles?.local?.close();
  });

  it('serves the tile folder and names it in the viewer hello', async () => {
    const dir = tempFolder('viewer-map-tiles');
    const written = writeTileFolder(join(dir, 'tiles'), { west: 10, south: 50, east: 10.1, north: 50.1, minZoom: 3, maxZoom: 8 });
    tiles = await mapTilesOf(join(dir, 'tiles'));
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, mapTiles: tiles });
    expect(server.config.mapTileUrl).to.equal(LOCAL_TILE_URL);

    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'hello'), 15_000, 'a hello');
    viewer.close();
    const hello = viewer.messages.find((m): m is StreamHelloMessage => m.type === 'hello') as StreamHelloMessage & { mapTileUrl?: string | null };
    expect(hello.mapTileUrl).to.equal(LOCAL_TILE_URL);

    const { z, x, y } = written[0];
    const tile = await fetch(`${server.url}/tiles/${z}/${x}/${y}`);
    expect(tile.status).to.equal(200);
    expect(tile.headers.get('content-type')).to.equal('image/png');
    const missing = await fetch(`${server.url}/tiles/${z}/0/0`);
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).to.equal('ERR_TILE_NOT_FOUND');
    const offGrid = await fetch(`${server.url}/tiles/3/9/0`);
    expect(offGrid.status).to.equal(400);
    expect(await (await fetch(`${server.url}/tiles`)).json()).to.deep.include({ tiles: [LOCAL_TILE_URL], minzoom: 3, maxzoom: 8 });
  });
});
