/**
 * The live-findings channel: a tRPC v11 router served over WebSocket
 * (live-channel.ts). Subscriptions follow the live session of the service,
 * and the next one when it ends; every event is `tracked` with the id
 * `<sessionId>:<seq>`, so a client that reconnects with the last id it got
 * (tRPC's wsLink does this by itself) resumes where it stopped, as long as
 * the session still keeps what it missed (live-event-log.ts).
 */
import { SEVERITY_RANK } from '@klvscope/core';
import { TRPCError, initTRPC, tracked } from '@trpc/server';
import * as z from 'zod/mini';
import type { Sequenced, LiveEventLog } from './live-event-log.js';
import type { LiveFinding } from './live-records.js';
import type { LiveSession } from './live-session.js';
import type { LiveSessions } from './live-sessions.js';
import type { FleetEventLog, Identified } from '../probe/fleet-event-log.js';
import type { ProbeHub } from '../probe/probe-hub.js';

export interface LiveContext {
  live: LiveSessions;
  /** The fleet's probes when the service is their hub (`--catalog`), else null. */
  probes: ProbeHub | null;
}

const resumable = { lastEventId: z.optional(z.nullable(z.string().check(z.maxLength(200)))) };

const findingsInput = z.optional(
  z.object({
    /** Only the findings of these checks (`live-source` for the source's own: losses, noise, silence). */
    checkIds: z.optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(100))),
    /** Only findings of this severity or worse. */
    minSeverity: z.optional(z.enum(['info', 'warning', 'error'])),
    ...resumable,
  }),
);

const resumeInput = z.optional(z.object(resumable));

const names = z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(100)));
const fleetScope = {
  /** Only the records of these probes. */
  probes: names,
  /** Only the records of these sessions. */
  sessionIds: names,
};
const fleetFindingsInput = z.optional(z.object({ ...fleetScope, checkIds: names, minSeverity: z.optional(z.enum(['info', 'warning', 'error'])), ...resumable }));
const fleetInput = z.optional(z.object({ ...fleetScope, ...resumable }));

const t = initTRPC.context<LiveContext>().create();

export const liveRouter = t.router({
  /** The active live session's state, or null. */
  activeSession: t.procedure.query(({ ctx }) => ctx.live.active()?.state() ?? null),
  /** A live session's state by id. */
  session: t.procedure.input(z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)) })).query(({ ctx, input }) => {
    const state = ctx.live.get(input.id);
    if (!state) throw new TRPCError({ code: 'NOT_FOUND', message: `no live session '${input.id}'` });
    return state;
  }),
  /** Findings (violations) as the checks emit them. */
  findings: t.procedure.input(findingsInput).subscription(async function* ({ ctx, input, signal }) {
    const checkIds = input?.checkIds ? new Set(input.checkIds) : null;
    const minimum = SEVERITY_RANK[input?.minSeverity ?? 'info'];
    const wanted = (finding: LiveFinding): boolean => (checkIds === null || checkIds.has(finding.checkId)) && SEVERITY_RANK[finding.severity] >= minimum;
    for await (const [id, finding] of followLive(ctx.live, (session) => session.findings, input?.lastEventId, signal)) {
      if (wanted(finding)) yield tracked(id, finding);
    }
  }),
  /** Decoded KLV metadata packets as they arrive. */
  metadata: t.procedure.input(resumeInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const [id, packet] of followLive(ctx.live, (session) => session.metadata, input?.lastEventId, signal)) yield tracked(id, packet);
  }),
  /** Statistics every second: bitrate per PID, packets per second, continuity errors, losses. */
  statistics: t.procedure.input(resumeInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const [id, reading] of followLive(ctx.live, (session) => session.statistics, input?.lastEventId, signal)) yield tracked(id, reading);
  }),
  /** A hub's probes, each with its sessions (GET /probes answers the same). */
  probes: t.procedure.query(({ ctx }) => hubOf(ctx).probes()),
  /** The findings of every probe's sessions, each naming its probe and session (docs/fleet.md "Probes"). */
  fleetFindings: t.procedure.input(fleetFindingsInput).subscription(async function* ({ ctx, input, signal }) {
    const checkIds = input?.checkIds ? new Set(input.checkIds) : null;
    const minimum = SEVERITY_RANK[input?.minSeverity ?? 'info'];
    for await (const finding of followFleet(hubOf(ctx).findings, input, signal)) {
      if ((checkIds === null || checkIds.has(finding.checkId)) && SEVERITY_RANK[finding.severity] >= minimum) yield tracked(String(finding.id), finding);
    }
  }),
  /** The statistics of every probe's sessions, every second each. */
  fleetStatistics: t.procedure.input(fleetInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const reading of followFleet(hubOf(ctx).statistics, input, signal)) yield tracked(String(reading.id), reading);
  }),
  /** The KLV track points (positions and angles of each metadata packet) of every probe's sessions. */
  fleetTrack: t.procedure.input(fleetInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const point of followFleet(hubOf(ctx).track, input, signal)) yield tracked(String(point.id), point);
  }),
});

function hubOf(ctx: LiveContext): ProbeHub {
  if (ctx.probes === null) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'this inspection service is no hub: start it with --catalog postgres://… to follow the fleet’s probes (docs/fleet.md)' });
  return ctx.probes;
}

/** A fleet log's records from the one after `lastEventId` (from now on without one), those of the probes and sessions asked for. */
async function* followFleet<T extends Identified & { probe: string; sessionId: string }>(
  log: FleetEventLog<T>,
  input: { probes?: string[]; sessionIds?: string[]; lastEventId?: string | null } | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<T, void, undefined> {
  const probes = input?.probes ? new Set(input.probes) : null;
  const sessions = input?.sessionIds ? new Set(input.sessionIds) : null;
  const after = input?.lastEventId && /^\d+$/.test(input.lastEventId) ? Number(input.lastEventId) : null;
  for await (const record of log.follow(after, signal ?? new AbortController().signal)) {
    if ((probes === null || probes.has(record.probe)) && (sessions === null || sessions.has(record.sessionId))) yield record;
  }
}

export type LiveRouter = typeof liveRouter;

/**
 * The events of one log of the live session, then of each session after it,
 * with their tracked ids. Resuming from an id of a session still in memory
 * goes on after that event; otherwise a follower starts with the active
 * session's first kept event, or waits for the next session.
 */
async function* followLive<T extends Sequenced>(
  live: LiveSessions,
  logOf: (session: LiveSession) => LiveEventLog<T>,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<[id: string, event: T], void, undefined> {
  const aborted = signal ?? new AbortController().signal;
  let resume = parseEventId(lastEventId);
  let session = live.latest();
  if (session === null || (!session.isActive && resume?.sessionId !== session.id)) session = await live.nextSession(session, aborted);
  while (session !== null) {
    const after = resume?.sessionId === session.id ? resume.seq : 0;
    resume = null;
    for await (const event of logOf(session).follow(after, aborted)) yield [`${session.id}:${event.seq}`, event];
    if (aborted.aborted) return;
    session = await live.nextSession(session, aborted);
  }
}

function parseEventId(id: string | null | undefined): { sessionId: string; seq: number } | null {
  const match = id ? /^([A-Za-z0-9_-]+):(\d+)$/.exec(id) : null;
  return match ? { sessionId: match[1], seq: Number(match[2]) } : null;
}
