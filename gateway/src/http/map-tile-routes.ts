/**
 * The map tiles a service offers its pages (`--tiles`), on both the
 * inspection service and the streaming module:
 * - GET /tiles: a TileJSON 3.0 document (`tiles`, `minzoom`, `maxzoom`,
 *   `bounds`), which the page reads to draw its map; 404
 *   ERR_MAP_TILES_NOT_CONFIGURED without tiles;
 * - GET /tiles/{z}/{x}/{y} (an extension after y is allowed): one tile of a
 *   local folder or MBTiles file, with its image type; 404 ERR_TILE_NOT_FOUND
 *   where there is none, 400 ERR_TILE_COORDINATES_INVALID for coordinates
 *   off the grid. With a tile URL (a tile server on the network) the
 *   document names that URL and this route has no tiles of its own.
 * Both are public, as the pages' own files are: imagery is what the map
 * draws before anyone signs in.
 */
import type { FastifyInstance } from 'fastify';
import { assertTileCoordinates, MapTilesError, openMapTiles, type MapTiles } from './map-tiles.js';

/** The template of the local tiles, relative to the page's origin. */
export const LOCAL_TILE_URL = '/tiles/{z}/{x}/{y}';

/** What `--tiles` gave: local tiles served here, or the URL template of a tile server. */
export type ServedMapTiles = { local: MapTiles; url: string } | { local: null; url: string };

/** Local tiles expire from the browser's cache after an hour: a file replaced shows by the next mission. */
const TILE_CACHE_CONTROL = 'public, max-age=3600';

/** `--tiles VALUE`: an http(s) URL template is a tile server; anything else a folder or MBTiles file. */
export async function mapTilesOf(value: string): Promise<ServedMapTiles> {
  if (/^https?:\/\//i.test(value)) return { local: null, url: value };
  return { local: await openMapTiles(value), url: LOCAL_TILE_URL };
}

/** The y segment: digits, and an image extension a client may add. */
const Y_SEGMENT = /^(\d{1,10})(\.(png|jpe?g|webp))?$/i;

function coordinate(text: string, pattern = /^(\d{1,10})$/): number {
  const match = pattern.exec(text);
  return match === null ? Number.NaN : Number(match[1]);
}

export function installMapTileRoutes(app: FastifyInstance, tiles: ServedMapTiles | null): void {
  const options = { config: { public: true } };
  app.get('/tiles', options, () => {
    if (tiles === null) throw new MapTilesError('ERR_MAP_TILES_NOT_CONFIGURED', 'this service has no map tiles: start it with --tiles FOLDER, --tiles FILE.mbtiles or --tiles URL');
    const described = tiles.local?.describe();
    return {
      tilejson: '3.0.0',
      tiles: [tiles.url],
      minzoom: described?.minzoom ?? 0,
      maxzoom: described?.maxzoom ?? 19,
      ...(described?.bounds ? { bounds: described.bounds } : {}),
      ...(described ? { scheme: 'xyz', source: described.kind } : {}),
    };
  });
  app.get<{ Params: { z: string; x: string; y: string } }>('/tiles/:z/:x/:y', options, async (request, reply) => {
    const { params } = request;
    const [z, x, y] = [coordinate(params.z), coordinate(params.x), coordinate(params.y, Y_SEGMENT)];
    assertTileCoordinates(z, x, y);
    const tile = tiles?.local ? await tiles.local.tile(z, x, y) : null;
    if (tile === null) throw new MapTilesError('ERR_TILE_NOT_FOUND', `no map tile ${z}/${x}/${y} ${tiles?.local ? 'in the tiles given' : 'here: this service serves no local tiles'}`, { z, x, y });
    return reply.type(tile.contentType).header('cache-control', TILE_CACHE_CONTROL).header('x-content-type-options', 'nosniff').send(Buffer.from(tile.bytes.buffer, tile.bytes.byteOffset, tile.bytes.byteLength));
  });
}
