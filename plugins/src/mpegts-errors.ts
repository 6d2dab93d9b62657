/**
 * mpegts-errors: the ETSI TR 101 290 view of a transport stream.
 *
 * Every problem the parser reports ('ts-error': sync, continuity, transport
 * error, CRC, PAT/PMT errors, malformed headers, scrambling, truncation) is
 * a point, typed by the parser's own name, and a violation unless the
 * parser calls it information (one duplicate packet, scrambled payload).
 * The timing indicators of priorities 1 and 2 are computed from the
 * observations, and only their failures become points:
 *
 * - 1.3.a `pat-missing`: no PAT section for longer than patMaxIntervalMs,
 *   counted from the start of the data to its end;
 * - 1.5.a `pmt-missing`: the same for each PMT PID, from the PAT naming it;
 * - 1.6 `pid-missing`: an elementary stream (or PCR) PID a PMT names gives no
 *   sign of life for longer than pidMaxGapMs, or is never carried (once). The
 *   observation model has no per-packet event; a PES start, a PCR, a
 *   discontinuity_indicator, a section or a parser problem on the PID are its
 *   signs of life (a PES starts at least every frame);
 * - 2.3a `pcr-repetition`: more than pcrMaxIntervalMs between two PCRs of a
 *   PID, in arrival (stream) time;
 * - 2.3b `pcr-discontinuity`: consecutive PCR values more than pcrMaxJumpMs
 *   apart, or going back, without discontinuity_indicator. TR 101 290 judges
 *   the values, so a PCR gap longer than the limit is both 2.3a and 2.3b;
 * - 2.4 `pcr-accuracy`: a PCR off its constant-bitrate line by more than
 *   ±pcrAccuracyNs (method: mpegts-pcr-accuracy.ts; variable-bitrate
 *   stretches are not judged);
 * - 2.5 `pts-repetition`: more than ptsMaxIntervalMs between two PES with a
 *   PTS on a PID, in stream time.
 *
 * Gaps are measured in stream time (mpegts-stream-time.ts) and reported at
 * the packet that ends them; a gap running to the end of the data is
 * reported at the end.
 */
import { NULL_PID, defineCheck, type Position, type PointPosition, type TsErrorObservation } from '@klvscope/core';
import * as z from 'zod/mini';
import { tr101290, tsErrorCitation } from './mpegts-clauses.js';
import type { Tr101290IndicatorType } from './mpegts-error-types.js';
import { PidIntervals } from './mpegts-intervals.js';
import { PcrAccuracy } from './mpegts-pcr-accuracy.js';
import { PcrSteps } from './mpegts-pcr-steps.js';
import { PresenceWatch, type EndFinding } from './mpegts-presence.js';
import { StreamTime, formatMs, hexPid, roundMs } from './mpegts-stream-time.js';

/** The start of the data: where the PAT is first expected. */
const START_OF_DATA: Position = { offset: 0, packetIndex: 0, t: null };

/** The parser's problems whose PID may be trusted as a sign that the PID's packets arrive. */
function showsPidAlive(error: TsErrorObservation): boolean {
  // A transport_error_indicator marks the header itself as damaged, PID included.
  return error.pid >= 0 && error.type !== 'transport-error';
}

/** The measured value of a parser problem, where it has one. */
function tsErrorValue(error: TsErrorObservation): { value: number | null; unit: string | null } {
  const bytes = error.details?.skippedBytes ?? error.details?.bytes;
  return typeof bytes === 'number' ? { value: bytes, unit: 'bytes' } : { value: null, unit: null };
}

export const mpegtsErrors = defineCheck({
  id: 'mpegts-errors',
  version: '1.1.0',
  title: 'MPEG-TS errors (TR 101 290)',
  description:
    'Every transport stream problem the parser reports, and the ETSI TR 101 290 priority 1 and 2 timing indicators: PAT, PMT and PID missing, PCR repetition, discontinuity and accuracy, PTS repetition.',
  rules: z.object({
    patMaxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('PAT missing beyond this time without a PAT section, ms (MISB ST 1402 / STANAG 4609 profile: 250; ETSI TR 101 290 1.3.a: 500)')),
      250,
    ),
    pmtMaxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('PMT missing beyond this time without a section on a PMT PID, ms (MISB ST 1402 / STANAG 4609 profile: 250; ETSI TR 101 290 1.5.a: 500)')),
      250,
    ),
    pidMaxGapMs: z._default(
      z.number().check(z.positive(), z.describe('PID missing beyond this time without a sign of a PID the PMT names, ms (no standard value: ETSI TR 101 290 1.6 leaves the period to the user; 5000 chosen, above any sane metadata or audio cadence)')),
      5000,
    ),
    pcrMaxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('PCR repetition limit, ms of arrival time (MISB ST 1402 and ISO/IEC 13818-1 2.7.2: 100; ETSI TR 101 290 2.3a: 100 as well)')),
      100,
    ),
    pcrMaxJumpMs: z._default(
      z.number().check(z.positive(), z.describe('PCR discontinuity: consecutive PCR values further apart than this (or going back) without discontinuity_indicator, ms (ETSI TR 101 290 2.3b: 100)')),
      100,
    ),
    pcrAccuracyNs: z._default(
      z.number().check(z.positive(), z.describe('PCR accuracy tolerance on constant-bitrate stretches, ns (ISO/IEC 13818-1 2.4.2.1 and ETSI TR 101 290 2.4: ±500)')),
      500,
    ),
    ptsMaxIntervalMs: z._default(
      z.number().check(z.positive(), z.describe('PTS repetition limit per PES PID, ms of stream time (ETSI TR 101 290 2.5, ISO/IEC 13818-1 2.7.4, MISB ST 1402: 700)')),
      700,
    ),
  }),
  consumes: ['ts-error', 'pat', 'pmt', 'psi-section', 'pcr', 'discontinuity', 'pes', 'pid-stats'],
  create(ctx) {
    const rules = ctx.rules;
    const time = new StreamTime();
    const patWatch = new PresenceWatch(time, rules.patMaxIntervalMs);
    const pmtWatch = new PresenceWatch(time, rules.pmtMaxIntervalMs);
    const pidWatch = new PresenceWatch(time, rules.pidMaxGapMs);
    const pcrSteps = new PcrSteps();
    const accuracy = new PcrAccuracy(rules.pcrAccuracyNs);
    const ptsIntervals = new PidIntervals(time);
    /** The PIDs each PMT PID names (elementary streams and PCR PID), to stop watching those a new version drops. */
    const namedBy = new Map<number, Set<number>>();
    const carried = new Set<number>();
    let pmtPidsNamed = new Set<number>();
    let end: Position | null = null;

    patWatch.expect(0, START_OF_DATA);

    const problem = (at: PointPosition, type: Tr101290IndicatorType, indicator: string, message: string, value: number | null, unit: string | null): void => {
      ctx.point(at, { message, value, unit, violation: true, severity: 'error', citation: tr101290(indicator), type });
    };
    const gap = (at: PointPosition, type: Tr101290IndicatorType, indicator: string, what: string, gapMs: number, limitMs: number): void => {
      const ms = roundMs(gapMs);
      problem(at, type, indicator, `${what} missing for ${formatMs(ms)} (limit ${formatMs(limitMs)})`, ms, 'ms');
    };
    const alive = (pid: number, at: PointPosition): void => {
      const gapMs = pidWatch.seen(pid, at);
      if (gapMs !== null) gap(at, 'pid-missing', '1.6', `PID ${hexPid(pid)}`, gapMs, rules.pidMaxGapMs);
    };
    /** What the end of the data leaves: a trailing gap (at the end) or something never seen (where it became expected). */
    const reportEnd = (
      findings: EndFinding[],
      endAt: Position,
      type: Tr101290IndicatorType,
      indicator: string,
      limitMs: number,
      what: (key: number) => string,
      neverSeen: (f: EndFinding) => [PointPosition, string],
    ): void => {
      for (const f of findings) {
        if (f.kind === 'never-seen') {
          const [at, message] = neverSeen(f);
          problem(at, type, indicator, message, null, null);
        } else if (f.ms !== null) {
          gap({ ...endAt, pid: f.key }, type, indicator, `${what(f.key)} (to the end of the data)`, f.ms, limitMs);
        }
      }
    };

    return {
      'ts-error'(error) {
        time.note(error);
        const { value, unit } = tsErrorValue(error);
        ctx.point(error, {
          message: error.message,
          value,
          unit,
          violation: error.severity !== 'info',
          severity: error.severity,
          citation: tsErrorCitation(error),
          type: error.type,
        });
        // Bytes were lost or skipped: byte positions stop measuring time for the PCR accuracy line.
        if (error.type === 'continuity-error' || error.type === 'sync-loss') accuracy.forgetAll();
        if (showsPidAlive(error)) alive(error.pid, error);
      },
      pat(pat) {
        time.note(pat);
        const named = new Set(pat.programs.filter((p) => p.programNumber !== 0).map((p) => p.pid));
        for (const pid of pmtPidsNamed) if (!named.has(pid)) pmtWatch.forget(pid);
        for (const pid of named) pmtWatch.expect(pid, pat);
        pmtPidsNamed = named;
      },
      pmt(pmt) {
        time.note(pmt);
        const named = new Set(pmt.streams.map((s) => s.pid));
        if (pmt.pcrPid !== NULL_PID) named.add(pmt.pcrPid);
        for (const pid of namedBy.get(pmt.pid) ?? []) if (!named.has(pid)) pidWatch.forget(pid);
        for (const pid of named) pidWatch.expect(pid, pmt);
        namedBy.set(pmt.pid, named);
      },
      'psi-section'(section) {
        time.note(section);
        if (section.tableType === 'PAT') {
          const gapMs = patWatch.seen(0, section);
          if (gapMs !== null) gap(section, 'pat-missing', '1.3.a', 'PAT', gapMs, rules.patMaxIntervalMs);
        } else if (section.tableType === 'PMT') {
          const gapMs = pmtWatch.seen(section.pid, section);
          if (gapMs !== null) gap(section, 'pmt-missing', '1.5.a', `PMT on PID ${hexPid(section.pid)}`, gapMs, rules.pmtMaxIntervalMs);
        }
        alive(section.pid, section);
      },
      discontinuity(discontinuity) {
        time.note(discontinuity);
        pcrSteps.discontinuity(discontinuity);
        alive(discontinuity.pid, discontinuity);
      },
      pcr(pcr) {
        time.note(pcr);
        alive(pcr.pid, pcr);
        const step = pcrSteps.next(pcr);
        if (step === null) {
          accuracy.sample(pcr);
          return;
        }
        if (step.arrivalMs > rules.pcrMaxIntervalMs) {
          const ms = roundMs(step.arrivalMs);
          problem(pcr, 'pcr-repetition', '2.3a', `PCR on PID ${hexPid(pcr.pid)} ${formatMs(ms)} after the previous one (limit ${formatMs(rules.pcrMaxIntervalMs)})`, ms, 'ms');
        }
        const jumped = step.valueStepMs < 0 || step.valueStepMs > rules.pcrMaxJumpMs;
        if (jumped && !step.signalled) {
          const ms = roundMs(step.valueStepMs);
          problem(pcr, 'pcr-discontinuity', '2.3b', `PCR on PID ${hexPid(pcr.pid)} steps ${formatMs(ms)} without discontinuity_indicator (allowed 0 to ${formatMs(rules.pcrMaxJumpMs)})`, ms, 'ms');
        }
        if (jumped || step.signalled) {
          // A new time base (announced or not): the constant-bitrate line starts again here.
          accuracy.restart(pcr);
          return;
        }
        const errorNs = accuracy.sample(pcr);
        if (errorNs !== null) {
          const ns = Math.round(errorNs * 10) / 10;
          problem(pcr, 'pcr-accuracy', '2.4', `PCR on PID ${hexPid(pcr.pid)} is ${ns} ns off its constant-bitrate line (limit ±${rules.pcrAccuracyNs} ns)`, ns, 'ns');
        }
      },
      pes(pes) {
        time.note(pes);
        alive(pes.pid, pes);
        if (pes.pts90kHz === null) return;
        const ms = ptsIntervals.next(pes.pid, pes);
        if (ms !== null && ms > rules.ptsMaxIntervalMs) {
          const rounded = roundMs(ms);
          problem(pes, 'pts-repetition', '2.5', `PTS on PID ${hexPid(pes.pid)} ${formatMs(rounded)} after the previous one (limit ${formatMs(rules.ptsMaxIntervalMs)})`, rounded, 'ms');
        }
      },
      'pid-stats'(stats) {
        time.note(stats);
        end ??= stats;
        if (stats.packets > 0) carried.add(stats.pid);
      },
      finish() {
        const endAt = end ?? time.last;
        if (endAt === null) return;
        reportEnd(patWatch.end(endAt, () => false), endAt, 'pat-missing', '1.3.a', rules.patMaxIntervalMs, () => 'PAT', () => [
          { ...endAt, pid: 0 },
          'no PAT section in the data',
        ]);
        reportEnd(pmtWatch.end(endAt, () => false), endAt, 'pmt-missing', '1.5.a', rules.pmtMaxIntervalMs, (pid) => `PMT on PID ${hexPid(pid)}`, (f) => [
          { ...f.since, pid: f.key },
          `PID ${hexPid(f.key)} is named in the PAT but carries no PMT`,
        ]);
        // A PID whose packets were there but unreadable (scrambled) is not missing.
        reportEnd(pidWatch.end(endAt, (pid) => carried.has(pid)), endAt, 'pid-missing', '1.6', rules.pidMaxGapMs, (pid) => `PID ${hexPid(pid)}`, (f) => [
          { ...f.since, pid: f.key },
          `PID ${hexPid(f.key)} is declared in the PMT but never carried`,
        ]);
      },
    };
  },
});
