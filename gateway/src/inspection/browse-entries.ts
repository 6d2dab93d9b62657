/**
 * The files and folders of one browse location, for the file browser
 * (POST /system/file-browse/entries). The folder itself has been confined
 * to the browse roots by the caller; its entries are judged one by one:
 *
 * - a symbolic link is followed only when its target lies inside a root,
 *   and is then listed as what it points at; a link leading outside the
 *   roots, or nowhere, is left out, and nothing of its target is read;
 * - only folders and regular files are listed (a FIFO, socket or device
 *   is nothing to open as a recording);
 * - names starting with '.' are left out unless asked for: the default
 *   root is the home folder, whose dot-folders would bury the recordings;
 * - the service's own secrets (service-secrets.ts) are never listed.
 *
 * Every entry is looked at with lstat first and its own metadata used, so
 * an entry swapped for a link after the folder was read is judged as the
 * link it has become, never followed unchecked.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { AdapterError } from '@klvscope/adapters';
import { confineToResolvedRoots, type ConfinedPath, type ResolvedRoots } from './browse-roots.js';
import { InspectionError } from './inspection-error.js';

/** The most entries one answer lists (`truncated` says when there were more). */
export const MAX_BROWSE_ENTRIES = 10_000;

/** Extensions recorders give MPEG-TS files; the listing judges by name only, file-check reads the bytes. */
export const TRANSPORT_STREAM_EXTENSIONS: ReadonlySet<string> = new Set(['.ts', '.m2ts', '.mts', '.trp']);

export interface BrowseEntry {
  name: string;
  /** Absolute path to send back to the service (inside the folder listed; a link keeps its own path). */
  path: string;
  kind: 'file' | 'folder';
  /** Bytes, for files; null for folders. */
  size: number | null;
  modifiedAt: string;
  /** A file whose extension recorders use for MPEG-TS. */
  isTransportStream: boolean;
}

export interface BrowseListing {
  /** The folder listed, resolved (links followed). */
  path: string;
  /** The browse root it lies in. */
  root: string;
  /** The folder above, or null at a root (the browser goes no higher). */
  parent: string | null;
  /** Folders first, then files, each by name (numbers in names compared as numbers). */
  entries: BrowseEntry[];
  /** True when the folder held more than MAX_BROWSE_ENTRIES listable entries. */
  truncated: boolean;
}

export interface BrowseOptions {
  showHidden?: boolean;
  /** Absolute paths never listed (the service's secrets in its data folder). */
  secrets?: ReadonlySet<string>;
}

// Numeric, case-insensitive: "rec2.ts" before "rec10.ts", as file managers sort.
const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export async function listBrowseEntries(folder: ConfinedPath, roots: ResolvedRoots, options: BrowseOptions = {}): Promise<BrowseListing> {
  const dirents = await readFolder(folder.path);
  const secrets = options.secrets ?? new Set<string>();
  const visible = dirents.filter((dirent) => (options.showHidden === true || !dirent.name.startsWith('.')) && !secrets.has(join(folder.path, dirent.name)));
  const entries = (await Promise.all(visible.map((dirent) => describeEntry(folder.path, dirent.name, roots)))).filter((entry) => entry !== null);
  entries.sort(compareEntries);
  return {
    path: folder.path,
    root: folder.root,
    parent: folder.path === folder.root ? null : dirname(folder.path),
    entries: entries.slice(0, MAX_BROWSE_ENTRIES),
    truncated: entries.length > MAX_BROWSE_ENTRIES,
  };
}

async function readFolder(path: string): Promise<Dirent[]> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw fileError(error, path);
  }
  if (!info.isDirectory()) throw new InspectionError('ERR_NOT_A_FOLDER', `${path} is not a folder`, { path });
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (error) {
    throw fileError(error, path);
  }
}

/** The entry as listed, or null when it is not listed (a link out of the roots or to nothing, a special file, gone meanwhile). */
async function describeEntry(folder: string, name: string, roots: ResolvedRoots): Promise<BrowseEntry | null> {
  const path = join(folder, name);
  let info: Stats;
  try {
    info = await lstat(path);
    if (info.isSymbolicLink()) {
      // Confinement refuses (throws) before anything of a target outside the roots is read.
      const target = await confineToResolvedRoots(path, roots, { in: 'body', field: 'path' });
      info = await stat(target.path);
    }
  } catch {
    return null;
  }
  const kind = info.isDirectory() ? 'folder' : info.isFile() ? 'file' : null;
  if (kind === null) return null;
  return {
    name,
    path,
    kind,
    size: kind === 'file' ? info.size : null,
    modifiedAt: info.mtime.toISOString(),
    isTransportStream: kind === 'file' && TRANSPORT_STREAM_EXTENSIONS.has(extname(name).toLowerCase()),
  };
}

function compareEntries(a: BrowseEntry, b: BrowseEntry): number {
  if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
  // Code points break ties ("a.ts" and "A.ts"), so the order never depends on readdir's.
  return byName.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function fileError(error: unknown, path: string): AdapterError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AdapterError('ERR_FILE_NOT_FOUND', `nothing at ${path}`, { path });
  return new AdapterError('ERR_FILE_UNREADABLE', `${path} cannot be read (${code ?? 'error'})`, { path, reason: code ?? 'unknown' });
}
