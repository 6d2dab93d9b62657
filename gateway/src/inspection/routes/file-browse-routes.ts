/**
 * File browsing and path helpers (spec "File browsing and path helpers").
 * Every path a request names goes through confineToRoots first: a NUL
 * byte, an over-long or a relative path is a 400, and a path outside the
 * browse roots (after `..` and symbolic links) is a 403, before anything at
 * the path is opened or listed.
 */
import { realpath, stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import { listBrowseEntries } from '../browse-entries.js';
import { ResolvedRoots, confineToResolvedRoots, confineToRoots } from '../browse-roots.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { checkRecordedFile } from '../recorded-file-check.js';
import { serviceSecretPaths } from '../service-secrets.js';

export const browseRootsSchema = z.object({
  /** As configured (`browseRoots`); `exists` is whether each is a folder now. */
  roots: z.array(z.object({ path: z.string(), exists: z.boolean() })),
});

export const browseEntriesSchema = z.object({
  path: z.string(),
  root: z.string(),
  parent: z.nullable(z.string()),
  entries: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      kind: z.enum(['file', 'folder']),
      size: z.nullable(z.number()),
      modifiedAt: z.string(),
      isTransportStream: z.boolean(),
    }),
  ),
  truncated: z.boolean(),
});

export const fileCheckSchema = z.object({
  path: z.string(),
  exists: z.boolean(),
  isFile: z.boolean(),
  readable: z.boolean(),
  size: z.nullable(z.number()),
  modifiedAt: z.nullable(z.string()),
  packetSize: z.nullable(z.union([z.literal(188), z.literal(192), z.literal(204)])),
  isTransportStream: z.boolean(),
  problem: z.nullable(z.object({ code: z.string(), message: z.string() })),
});

const entriesBodySchema = z.strictObject({
  path: z.string(),
  /** List names starting with '.' too (default false). */
  showHidden: z.optional(z.boolean()),
});

const fileCheckBodySchema = z.strictObject({ filePath: z.string() });

export const fileBrowseRoutes: RouteModule = (deps) => {
  const roots = (): readonly string[] => deps.settings.current().browseRoots;
  return [
    defineRoute({
      method: 'GET',
      path: '/system/file-browse/roots',
      summary: 'lists recorded-file browse roots',
      schemas: { response: browseRootsSchema },
      handle: async (): Promise<z.output<typeof browseRootsSchema>> => ({
        roots: await Promise.all(roots().map(async (path) => ({ path, exists: await isFolder(path) }))),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/system/file-browse/entries',
      summary: 'lists the files and folders of a folder inside the browse roots',
      schemas: { body: entriesBodySchema, response: browseEntriesSchema },
      handle: async ({ body }) => {
        // Resolved once for the folder and every link among its entries.
        const current = new ResolvedRoots(roots());
        const folder = await confineToResolvedRoots(body.path, current, { in: 'body', field: 'path' });
        // The data folder resolved as the folder is, so a root reached through a link still hides them.
        const secrets = serviceSecretPaths(await realpath(deps.store.dataDir).catch(() => deps.store.dataDir));
        return listBrowseEntries(folder, current, { showHidden: body.showHidden, secrets });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/system/file-check',
      summary: 'validates a local recorded-file path: exists, regular file, readable, MPEG-TS packets',
      schemas: { body: fileCheckBodySchema, response: fileCheckSchema },
      handle: async ({ body }) => checkRecordedFile((await confineToRoots(body.filePath, roots(), { in: 'body', field: 'filePath' })).path),
    }),
  ];
};

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
