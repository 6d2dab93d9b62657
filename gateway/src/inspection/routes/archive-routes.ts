/**
 * The analysis archive (spec "Analysis archive"): every file with cached
 * stages, found by hash or by path, and deleted with its ingest runs and
 * their database files (the file's hash record stays: it spares a re-hash).
 *
 * A lookup by path identifies the file as the workflow does (hashing it only
 * when the catalog has no record of the path at its current size and
 * modification time), so it finds the entry of the content the file holds
 * now, also when that content was analysed under another path.
 */
import { type ArchiveEntry } from '@klvscope/core/store';
import { archiveEntryDetail, deleteFromArchive, listArchive, type ArchiveEntryDetail, type ReportPayload } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { fileHashParams, fileHashSchema } from '../file-hash-param.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { filePathBodySchema, requestedFile } from '../requested-file.js';

/** Hashes one DELETE may name at most. */
export const MAX_DELETE_HASHES = 1_000;

const deleteBody = z.strictObject({ hashes: z.array(fileHashSchema).check(z.minLength(1), z.maxLength(MAX_DELETE_HASHES)) });

export interface ArchiveEntryAnswer extends ArchiveEntryDetail {
  /** The report under the current rules when every stage it needs is cached for them; else null. */
  report: ReportPayload | null;
}

function entryOf(deps: InspectionDeps, hash: string): ArchiveEntryAnswer {
  const entry = archiveEntryDetail(deps.store, hash);
  if (!entry) throw new InspectionError('ERR_ARCHIVE_ENTRY_NOT_FOUND', `no analysis archive entry for file ${hash}`, { hash });
  const workflow = deps.rules.workflow();
  return { ...entry, report: workflow.reportIfReady({ hash, path: entry.firstPath }) };
}

export const archiveRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/analysis/archive',
    summary: "lists cached analysis archive entries, most recently updated first (with a fleet: the fleet's, each with the worker that inspected it)",
    schemas: {},
    handle: async (): Promise<{ entries: (ArchiveEntry & { worker?: string | null })[] }> => ({ entries: deps.fleet === null ? listArchive(deps.store) : await deps.fleet.archiveEntries() }),
  }),
  defineRoute({
    method: 'POST',
    path: '/analysis/archive/lookup',
    summary: 'the archive entry of the content a file holds now (404 when none)',
    schemas: { body: filePathBodySchema },
    handle: async ({ body }) => {
      const file = await requestedFile(deps, body.filePath);
      const { hash } = await deps.rules.workflow().identify(file.path);
      return entryOf(deps, hash);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/analysis/archive/:hash',
    summary: 'cached analysis results of a file hash: the entry, its ingest runs and, when cached under the current rules, its report',
    schemas: { params: fileHashParams },
    handle: ({ params }) => entryOf(deps, params.hash),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/analysis/archive',
    summary: 'deletes the entries of these file hashes with their ingest runs; answers the hashes that had anything stored',
    schemas: { body: deleteBody },
    handle: async ({ body }): Promise<{ deleted: string[] }> => {
      // A fleet's entries go from the fleet too, else the next listing would show them again.
      const fromFleet = deps.fleet === null ? [] : await deps.fleet.deleteEntries(body.hashes);
      const local = await deleteFromArchive(deps.store, body.hashes);
      const deleted = body.hashes.filter((hash) => fromFleet.includes(hash) || local.includes(hash));
      // The cached H.264 variants go with their entries.
      await deps.playbackTranscodes.remove(body.hashes);
      return { deleted };
    },
  }),
];
