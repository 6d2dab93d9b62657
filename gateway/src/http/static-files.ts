/**
 * A built folder of browser files (web/dist/viewer), read once into memory:
 * a few hundred KB, served by exact path only, so no request path can reach
 * outside it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';

export interface StaticFile {
  bytes: Buffer;
  contentType: string;
}

export type StaticFiles = ReadonlyMap<string, StaticFile>;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Every file below `folder`, by URL path (`/index.html`); null when the folder does not exist. */
export async function loadStaticFiles(folder: string): Promise<StaticFiles | null> {
  let names: string[];
  try {
    names = await readdir(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const files = new Map<string, StaticFile>();
  for (const name of names) {
    const path = join(folder, name);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') continue;
      throw error;
    }
    files.set(`/${relative(folder, path).split(sep).join('/')}`, { bytes, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream' });
  }
  return files.has('/index.html') ? files : null;
}
