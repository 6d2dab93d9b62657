/**
 * Map tiles made here, without the internet: 256-pixel PNGs (written with
 * node:zlib) in a checkerboard of two "imagery" colours with a dark edge, so
 * that a screenshot shows where tiles were drawn; laid out as a Z/X/Y folder
 * or stored in an MBTiles file built with sql.js (rows in TMS order).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { loadSqlEngine } from '@klvscope/core/store';

export const TILE_SIZE = 256;

/** The two colours of the checkerboard (RGB), by the parity of x + y. */
export const TILE_COLOURS: ReadonlyArray<readonly [number, number, number]> = [
  [74, 120, 62],
  [112, 150, 88],
];

/** A dark checkerboard (night imagery, deep water): where dark map text is lost. */
export const DARK_TILE_COLOURS: ReadonlyArray<readonly [number, number, number]> = [
  [22, 30, 40],
  [40, 46, 34],
];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of one colour with a two-pixel darker edge. */
export function tilePng([r, g, b]: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(TILE_SIZE, 0);
  header.writeUInt32BE(TILE_SIZE, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const rows = Buffer.alloc(TILE_SIZE * (1 + TILE_SIZE * 3));
  for (let y = 0; y < TILE_SIZE; y++) {
    const row = y * (1 + TILE_SIZE * 3);
    for (let x = 0; x < TILE_SIZE; x++) {
      const edge = x < 2 || y < 2 || x >= TILE_SIZE - 2 || y >= TILE_SIZE - 2;
      const at = row + 1 + x * 3;
      rows[at] = edge ? r >> 1 : r;
      rows[at + 1] = edge ? g >> 1 : g;
      rows[at + 2] = edge ? b >> 1 : b;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export interface TileArea {
  west: number;
  south: number;
  east: number;
  north: number;
  minZoom: number;
  maxZoom: number;
}

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

function tileX(lon: number, z: number): number {
  return Math.floor(((lon + 180) / 360) * 2 ** z);
}

function tileY(lat: number, z: number): number {
  const rad = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z);
}

/** Every XYZ tile over the area at each zoom. */
export function tilesOver(area: TileArea): TileAddress[] {
  const tiles: TileAddress[] = [];
  for (let z = area.minZoom; z <= area.maxZoom; z++) {
    for (let x = tileX(area.west, z); x <= tileX(area.east, z); x++) {
      for (let y = tileY(area.north, z); y <= tileY(area.south, z); y++) tiles.push({ z, x, y });
    }
  }
  return tiles;
}

export function tileColour({ x, y }: TileAddress): readonly [number, number, number] {
  return TILE_COLOURS[(x + y) % 2];
}

/** Writes the area's tiles as FOLDER/Z/X/Y.png, in the checkerboard of `colours`; returns how many. */
export function writeTileFolder(folder: string, area: TileArea, colours = TILE_COLOURS): TileAddress[] {
  const pngs = colours.map((colour) => tilePng(colour));
  const tiles = tilesOver(area);
  for (const tile of tiles) {
    mkdirSync(join(folder, String(tile.z), String(tile.x)), { recursive: true });
    writeFileSync(join(folder, String(tile.z), String(tile.x), `${tile.y}.png`), pngs[(tile.x + tile.y) % 2]);
  }
  return tiles;
}

/** Writes the tiles (each with its bytes) to an MBTiles file: the spec's tables, rows in TMS order. */
export async function writeMbtiles(file: string, tiles: ReadonlyArray<TileAddress & { bytes: Uint8Array }>, metadata: Record<string, string> = {}): Promise<void> {
  const SQL = await loadSqlEngine();
  const db = new SQL.Database();
  try {
    db.run('CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
    for (const [name, value] of Object.entries({ name: 'klvscope test tiles', format: 'png', ...metadata })) db.run('INSERT INTO metadata VALUES (?, ?)', [name, value]);
    const insert = db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)');
    for (const { z, x, y, bytes } of tiles) insert.run([z, x, 2 ** z - 1 - y, bytes]);
    insert.free();
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
}

/** The area's checkerboard tiles as MBTiles. */
export async function writeMbtilesOver(file: string, area: TileArea): Promise<TileAddress[]> {
  const pngs = TILE_COLOURS.map((colour) => tilePng(colour));
  const tiles = tilesOver(area);
  await writeMbtiles(
    file,
    tiles.map((tile) => ({ ...tile, bytes: pngs[(tile.x + tile.y) % 2] })),
    { bounds: `${area.west},${area.south},${area.east},${area.north}`, minzoom: String(area.minZoom), maxzoom: String(area.maxZoom) },
  );
  return tiles;
}

/** Around the flight of the osh-addons fixture (34.70 N, 86.67 W), wider than a map fitted to it; zooms 6 to 14. */
export const OSH_ADDONS_AREA: TileArea = { west: -86.95, south: 34.5, east: -86.4, north: 34.9, minZoom: 6, maxZoom: 14 };
