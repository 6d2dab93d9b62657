/**
 * Sessions (spec "Sessions"), one active at a time, of either kind. A
 * recorded-file session is the workflow's file session, with a playback
 * token for its recording; its metadata items are the decoded KLV packets
 * of its ingest run, its findings the violations the checks found in it. A
 * live session (UDP, multicast, serial: gateway/src/live) inspects a source
 * as it arrives; its metadata items and findings are those it has received
 * so far (the latest, when a long session has outgrown its database's
 * bounds). Starting either kind replaces the active session of the other.
 */
import { CoreError, type Point } from '@klvscope/core';
import { readDataset } from '@klvscope/core/store';
import { WorkflowError, type ProcessPayload, type Workspace } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { openReplacingActive, stopFileSession } from '../file-session-replacement.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { requestedFile } from '../requested-file.js';
import { API_PREFIX } from '../service-address.js';
import type { ProbeSessionView } from '../../probe/probe-records.js';
import { fleetOf } from './fleet-routes.js';

const filePathBody = z.object({ filePath: z.string() });
const liveBody = z.object({
  /** `udp://GROUP:PORT`, `udp://SOURCE@GROUP:PORT`, `udp://HOST:PORT` or `serial:///dev/ttyX?baud=N` (docs/live.md). */
  source: z.string().check(z.minLength(1), z.maxLength(2_048)),
  /** On a hub: the probe to run the session on (docs/fleet.md "Probes"); it runs beside the probe's others, replacing none. */
  probe: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)) });
const pageQuery = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000))),
  offset: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
});
const findingsQuery = z.extend(pageQuery, {
  /** Only the findings of this check. */
  checkId: z.optional(z.string()),
});

/** Findings and metadata items per page unless asked otherwise. */
const DEFAULT_PAGE = 1_000;

/** The page a query asks for, defaults filled in. */
function pageOf(query: z.output<typeof pageQuery>): { limit: number; offset: number } {
  return { limit: query.limit ?? DEFAULT_PAGE, offset: query.offset ?? 0 };
}

export const sessionRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'POST',
    path: '/sessions/file',
    summary: 'starts a recorded-file inspection session (replacing the active one); returns its workspace and a playback URL',
    status: 201,
    schemas: { body: filePathBody },
    handle: async ({ body }) => {
      // Checked before anything is replaced: a path that names no regular file leaves the active session running.
      const { path } = await requestedFile(deps, body.filePath);
      return withPlayback(deps, await openReplacingActive(deps, path));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sessions/live',
    summary: 'starts a live inspection session on a UDP, multicast or serial source (replacing the active session); its findings stream on the live channel',
    status: 201,
    schemas: { body: liveBody },
    handle: async ({ body }) => {
      if (body.probe !== undefined) return fleetOf(deps).probes.startSession(body.probe, body.source);
      const state = await deps.live.start(body.source);
      if (deps.fileSessions.active()) await stopFileSession(deps, 'replaced');
      return state;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sessions/active',
    summary: 'the active session if one exists ({ "active": null } otherwise)',
    schemas: {},
    handle: () => ({ active: deps.live.active()?.state() ?? deps.fileSessions.active() }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/sessions/active',
    summary: 'stops the active session (409 without one)',
    schemas: {},
    handle: async () => {
      if (deps.live.active()) return deps.live.stop();
      return stopFileSession(deps);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sessions/active/stage/complete',
    summary: 'runs the active session’s current stage (reusing it when cached) and moves to the next (409 without a session)',
    schemas: {},
    handle: () => deps.fileSessions.completeStage(),
  }),
  defineRoute({
    method: 'GET',
    path: '/sessions/:id',
    summary: 'session by identifier',
    schemas: { params: idParams },
    handle: async ({ params }) => deps.live.get(params.id) ?? (await probeSession(deps, params.id)) ?? sessionOf(deps, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/sessions/:id/metadata',
    summary: 'the decoded KLV metadata packets of the session (a file’s from its ingest run; a live session’s as received), paged',
    schemas: { params: idParams, query: pageQuery },
    handle: async ({ params, query }) => {
      const live = await deps.live.metadata(params.id, pageOf(query));
      if (live) return { sessionId: params.id, total: live.total, items: live.rows };
      const session = sessionOf(deps, params.id);
      const runId = session.latestIngestRunId ?? deps.rules.workflow().cached<{ runId: string }>(session.fileHash, 'ingest')?.runId;
      if (!runId) throw notReady(session, 'ingest');
      const page = await deps.store.readRun(runId, (run) => readDataset(run, 'klv/metadata-packets', pageOf(query)));
      return { sessionId: session.sessionId, ingestRunId: runId, total: page.total, items: page.rows };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sessions/:id/findings',
    summary: 'the violations the checks found in the session (a file’s in the checks’ order; a live session’s in arrival order), paged',
    schemas: { params: idParams, query: findingsQuery },
    handle: async ({ params, query }) => {
      const live = await deps.live.findings(params.id, { checkId: query.checkId, ...pageOf(query) });
      if (live) return { sessionId: params.id, total: live.total, findings: live.rows };
      const probed = await deps.fleet?.probes.sessionFindings(params.id, { checkId: query.checkId, ...pageOf(query) });
      if (probed) return { sessionId: params.id, total: probed.total, findings: probed.rows };
      const session = sessionOf(deps, params.id);
      const process = deps.rules.workflow().cached<ProcessPayload>(session.fileHash, 'process');
      if (!process) throw notReady(session, 'process');
      const { limit, offset } = pageOf(query);
      let skip = offset;
      const checks = process.checks.filter((check) => query.checkId === undefined || check.checkId === query.checkId);
      if (query.checkId !== undefined && checks.length === 0) {
        throw new CoreError('ERR_CHECK_NOT_FOUND', `no check '${query.checkId}' in this session's results`, { checkId: query.checkId });
      }
      const findings: Array<Point & { checkId: string }> = [];
      let total = 0;
      await deps.store.readRun(process.runId, (run) => {
        for (const check of checks) {
          const wanted = Math.max(0, limit - findings.length);
          const page = run.readCheckPoints(process.checkKey, check.checkId, { violationsOnly: true, limit: wanted, offset: skip });
          total += page.total;
          // What this check had before the requested offset is skipped; the rest of the offset carries to the next check.
          skip = Math.max(0, skip - page.total);
          for (const point of page.points) findings.push({ ...point, checkId: check.checkId });
        }
      });
      return { sessionId: session.sessionId, ingestRunId: process.runId, total, findings };
    },
  }),
];

/** A session of one of the fleet's probes, on a hub; null elsewhere or when no probe ran `id`. */
async function probeSession(deps: InspectionDeps, id: string): Promise<ProbeSessionView | null> {
  return deps.fleet ? deps.fleet.probes.session(id) : null;
}

function sessionOf(deps: InspectionDeps, id: string): Workspace {
  const session = deps.fileSessions.get(id);
  if (!session) throw new WorkflowError('ERR_SESSION_NOT_FOUND', `no session '${id}'`, { id });
  return session;
}

function notReady(session: Workspace, stage: 'ingest' | 'process'): WorkflowError {
  return new WorkflowError('ERR_STAGE_NOT_READY', `session ${session.sessionId} has not completed its ${stage} stage yet`, { sessionId: session.sessionId, stage });
}

function withPlayback(deps: InspectionDeps, workspace: Workspace): Workspace & { playback: { url: string; expiresAt: string } } {
  const grant = deps.playback.issue(workspace.path, workspace.fileHash);
  return { ...workspace, playback: { url: `${API_PREFIX}/playback/${grant.token}`, expiresAt: new Date(grant.expiresAtMs).toISOString() } };
}
