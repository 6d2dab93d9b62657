/**
 * What the files page reads and changes, as the REST interface answers it
 * (docs/rest.md): the browse roots and folder listings, the recent sources,
 * the analysis archive. Only the fields the page shows are named.
 */
import type { ApiClient } from '../api-client.js';

export interface BrowseRoot {
  path: string;
  /** False for a root that is not a folder now (a disk not mounted). */
  exists: boolean;
}

export interface BrowseEntry {
  name: string;
  path: string;
  kind: 'folder' | 'file';
  size: number | null;
  modifiedAt: string;
  /** By extension only (.ts, .m2ts, .mts, .trp). */
  isTransportStream: boolean;
}

export interface FolderListing {
  path: string;
  root: string;
  /** The folder above, or null at a root. */
  parent: string | null;
  truncated: boolean;
  entries: BrowseEntry[];
}

/** `POST /system/file-check`: what an analysis would find at a path. */
export interface FileCheck {
  path: string;
  size: number | null;
  isTransportStream: boolean;
  problem: { code: string; message: string } | null;
}

export interface RecentSource {
  id: string;
  kind: string;
  source: string;
  lastUsedAt: string;
}

export interface ArchiveEntry {
  hash: string;
  size: number;
  firstPath: string;
  stages: string[];
  updatedMs: number;
  /** With a fleet: the worker that inspected it (host-pid-…), null when none did. */
  worker?: string | null;
}

export const filesApi = {
  roots: (api: ApiClient) => api.get<{ roots: BrowseRoot[] }>('/system/file-browse/roots').then((answer) => answer.roots),
  folder: (api: ApiClient, path: string) => api.post<FolderListing>('/system/file-browse/entries', { path }),
  checkFile: (api: ApiClient, filePath: string) => api.post<FileCheck>('/system/file-check', { filePath }),
  recentSources: (api: ApiClient) => api.get<{ sources: RecentSource[] }>('/sources/recent').then((answer) => answer.sources),
  removeRecentSource: (api: ApiClient, id: string) => api.request<void>('DELETE', `/sources/${encodeURIComponent(id)}`),
  archive: (api: ApiClient) => api.get<{ entries: ArchiveEntry[] }>('/analysis/archive').then((answer) => answer.entries),
  deleteArchiveEntry: (api: ApiClient, hash: string) => api.request<{ deleted: string[] }>('DELETE', '/analysis/archive', { body: { hashes: [hash] } }),
};
