/**
 * Map imagery without the internet (a ground station's): a folder of tiles
 * laid out `Z/X/Y.png` (or .jpg, .jpeg, .webp: the XYZ scheme of
 * OpenStreetMap and of `gdal2tiles --xyz`), or an MBTiles file (SQLite, its
 * rows in the TMS scheme, y counted from the south). Either answers a tile
 * by its XYZ coordinates. The coordinates are numbers checked before any
 * path is made of them, so no request can name a file outside the folder.
 * An MBTiles file is read whole into memory (sql.js has no file access):
 * fine for the area of a mission, not for a planet.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CodedError } from '@klvscope/core';
import { loadSqlEngine, type SqlDatabase } from '@klvscope/core/store';

export type MapTilesErrorCode =
  /** No tile at those coordinates in the folder or file. */
  | 'ERR_TILE_NOT_FOUND'
  /** Coordinates that are not whole numbers, or outside the grid of their zoom level. */
  | 'ERR_TILE_COORDINATES_INVALID'
  /** The service was started without map tiles (GET /tiles). */
  | 'ERR_MAP_TILES_NOT_CONFIGURED'
  /** The --tiles path is neither a tile folder nor an MBTiles file. */
  | 'ERR_MAP_TILES_UNUSABLE';

export class MapTilesError extends CodedError<MapTilesErrorCode> {
  override readonly name = 'MapTilesError';
}

export interface MapTile {
  bytes: Uint8Array;
  contentType: string;
}

/** What a client needs to draw the tiles: a TileJSON 3.0 subset (GET /tiles). */
export interface MapTilesDescription {
  kind: 'folder' | 'mbtiles';
  minzoom: number;
  maxzoom: number;
  /** West, south, east, north in degrees, when the MBTiles file says. */
  bounds: [number, number, number, number] | null;
}

export interface MapTiles {
  readonly path: string;
  describe(): MapTilesDescription;
  /** The tile, or null when there is none there. Throws ERR_TILE_COORDINATES_INVALID. */
  tile(z: number, x: number, y: number): Promise<MapTile | null>;
  close(): void;
}

/** Deep enough for 2 cm a pixel; 2^30 keeps x and y safe integers. */
export const MAX_TILE_ZOOM = 30;

const EXTENSION_TYPES: ReadonlyArray<[string, string]> = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['webp', 'image/webp'],
];

export function assertTileCoordinates(z: number, x: number, y: number): void {
  const whole = [z, x, y].every((n) => Number.isSafeInteger(n) && n >= 0);
  if (!whole || z > MAX_TILE_ZOOM || x >= 2 ** z || y >= 2 ** z) {
    throw new MapTilesError('ERR_TILE_COORDINATES_INVALID', `no tile ${z}/${x}/${y}: zoom 0 to ${MAX_TILE_ZOOM}, x and y from 0 to 2^zoom - 1`, { z, x, y });
  }
}

/** The image type of tile bytes from their signature (MBTiles rows say nothing of their own). */
export function tileContentType(bytes: Uint8Array): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  // Vector tiles and the rest: bytes the browser is not to guess at.
  return 'application/octet-stream';
}

/** Opens `path`: a folder of Z/X/Y tiles, or an .mbtiles file. */
export async function openMapTiles(path: string): Promise<MapTiles> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => null);
  if (info?.isDirectory()) return openTileFolder(absolute);
  if (info?.isFile()) return openMbtiles(absolute);
  throw new MapTilesError('ERR_MAP_TILES_UNUSABLE', `map tiles '${path}': no such folder or file (give a Z/X/Y tile folder or an .mbtiles file)`, { path });
}

async function openTileFolder(root: string): Promise<MapTiles> {
  const zooms = (await readdir(root)).filter((name) => /^\d{1,2}$/.test(name)).map(Number);
  if (zooms.length === 0) throw new MapTilesError('ERR_MAP_TILES_UNUSABLE', `map tiles '${root}': no zoom-level folders (0, 1, …) in it: a tile folder is laid out Z/X/Y.png`, { path: root });
  const description: MapTilesDescription = { kind: 'folder', minzoom: Math.min(...zooms), maxzoom: Math.max(...zooms), bounds: null };
  return {
    path: root,
    describe: () => description,
    async tile(z, x, y) {
      assertTileCoordinates(z, x, y);
      // Made of three checked numbers only: the path cannot leave the folder.
      for (const [extension, contentType] of EXTENSION_TYPES) {
        const bytes = await readFile(join(root, String(z), String(x), `${y}.${extension}`)).catch(() => null);
        if (bytes !== null) return { bytes, contentType };
      }
      return null;
    },
    close: () => undefined,
  };
}

async function openMbtiles(file: string): Promise<MapTiles> {
  const SQL = await loadSqlEngine();
  let db: SqlDatabase;
  let zooms: { min: number; max: number };
  try {
    db = new SQL.Database(await readFile(file));
    const range = db.exec('SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles')[0]?.values[0] ?? [];
    zooms = { min: Number(range[0] ?? 0), max: Number(range[1] ?? 0) };
  } catch (error) {
    throw new MapTilesError('ERR_MAP_TILES_UNUSABLE', `map tiles '${file}' is not an MBTiles file (${(error as Error).message})`, { path: file }, { cause: error });
  }
  const metadata = new Map<string, string>();
  try {
    for (const [name, value] of db.exec('SELECT name, value FROM metadata')[0]?.values ?? []) metadata.set(String(name), String(value));
  } catch {
    // The metadata table is optional for reading tiles.
  }
  const bounds = metadata.get('bounds')?.split(',').map(Number);
  const description: MapTilesDescription = {
    kind: 'mbtiles',
    minzoom: zooms.min,
    maxzoom: zooms.max,
    bounds: bounds?.length === 4 && bounds.every(Number.isFinite) ? (bounds as [number, number, number, number]) : null,
  };
  const query = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
  return {
    path: file,
    describe: () => description,
    tile(z, x, y) {
      assertTileCoordinates(z, x, y);
      try {
        // MBTiles rows are TMS: row 0 is the southernmost.
        query.bind([z, x, 2 ** z - 1 - y]);
        if (!query.step()) return Promise.resolve(null);
        const data = query.get()[0];
        if (!(data instanceof Uint8Array)) return Promise.resolve(null);
        return Promise.resolve({ bytes: data, contentType: tileContentType(data) });
      } finally {
        query.reset();
      }
    },
    close() {
      query.free();
      db.close();
    },
  };
}
