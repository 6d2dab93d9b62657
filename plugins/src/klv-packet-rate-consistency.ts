/**
 * The rhythm of each KLV PID: one point per interval between its packets, in
 * ms, against the expected period (`expectedRateHz`, or detected: the median
 * of the PID's recent intervals).
 *
 * Which clock measures an interval (`clock`, default 'auto'): the PES PTS
 * when the PID's packets carry one (MISB ST 1402: the time the metadata
 * belongs to); else the producer's own time stamp (ST 0601 item 2), because
 * arrival times without PTS measure the multiplexer, not the metadata
 * (kwiver_h265_tricky_klv.ts: 60 Hz packets by item 2 arrive in pairs 1.4 ms
 * apart every 33 ms); else the stream time `t` (PCR-based arrival), for keys
 * that carry no time stamp. One PES carrying several KLV packets (or two
 * packets with one time) is one instant: it gives no interval. A packet
 * without a time on the PID's clock is skipped and the next interval spans
 * it (its expectation is two periods).
 *
 * Violations (no MISB standard fixes a KLV rate or a tolerance; the
 * defaults are documented choices):
 * - a dropout, an error: an interval of at least `dropoutPeriods` periods
 *   more than expected, i.e. packets missing; one violation per gap, at the
 *   first packet after it;
 * - jitter, a warning: intervals off the period by more than the tolerance
 *   (`maxDeviationMs`, else `tolerancePercent` of the period). Intervals off
 *   the period less than `jitterQuietMs` apart are one episode, reported
 *   once at its largest deviation; its other off-period intervals stay
 *   points (type 'klv-interval-off-rate') but not violations.
 */
import { PTS_HZ, defineCheck, ptsDelta90kHz, type PointFinding, type PointPosition, type PointSeries } from '@klvscope/core';
import * as z from 'zod/mini';
import { HeldPoints, type HeldPoint } from './klv-held-points.js';
import { countOf, klvPacketLabel, klvPidLabel } from './klv-labels.js';
import { RollingMedian } from './klv-rolling-median.js';

const CITATION = 'MISB ST 1402 (KLV carriage and timing); no MISB standard fixes a KLV rate: klvscope tolerance';
/** Intervals gathered before the detected period is trusted (and earlier intervals judged). */
const WARM_UP_INTERVALS = 32;
/** Intervals the detected period is the median of. */
const MEDIAN_WINDOW = 255;
/** Points an open jitter episode may hold back before it is closed anyway (bounded memory). */
const MAX_HELD_POINTS = 4096;

type Clock = 'pts' | 'item2' | 'stream-time';
const CLOCK_NAMES: Record<Clock, string> = { pts: 'PTS', item2: 'item 2', 'stream-time': 'stream time' };

/** A KLV packet waiting for its decoded time stamp (the metadata-packet follows its klv-packet). */
interface PendingPacket {
  at: PointPosition;
  klvIndex: number;
  pts90kHz: number | null;
  t: number | null;
  timestampMicros: number | null;
}

/** An interval measured on the PID's clock, not yet judged. */
interface Measured {
  at: PointPosition;
  klvIndex: number;
  previousKlvIndex: number;
  /** The packet's time on the PID's clock, ms (monotonic within the series). */
  clockMs: number;
  intervalMs: number;
  /** Packets the interval spans (1, or more when packets in between had no time). */
  packets: number;
}

/** A point that measures nothing (a packet without a time on the clock). */
interface Note {
  at: PointPosition;
  finding: PointFinding;
}

interface Episode {
  points: HeldPoint[];
  worst: HeldPoint;
  worstDeviationMs: number;
  worstKlvIndex: number;
  firstKlvIndex: number;
  lastKlvIndex: number;
  lastOffClockMs: number;
}

class PidRhythm {
  clock: Clock | null = null;
  pending: PendingPacket | null = null;
  /** Raw time of the last timed packet on the clock (90 kHz ticks, µs or s). */
  lastTime: number | null = null;
  lastClockMs = 0;
  lastKlvIndex = -1;
  packetsSince = 0;
  /** A packet that went back on the clock: if the next one follows it rather than the last good one, the clock was reset there. */
  rewound: { time: number; klvIndex: number; packetsSince: number } | null = null;
  /** While the period is being learnt: intervals and notes, in order, judged and emitted once it is known. */
  warmUp: Array<Measured | Note> = [];
  readonly median = new RollingMedian(MEDIAN_WINDOW);
  episode: Episode | null = null;
  dropouts = 0;
  episodes = 0;
  intervals = 0;
  private withinTolerance: PointSeries | null = null;
  constructor(readonly pid: number, readonly held: HeldPoints) {}

  /** The series of the intervals within the tolerance, made once (the clock is fixed by then): the interval is the point's value. */
  intervalSeries(): PointSeries {
    return (this.withinTolerance ??= {
      message: `${klvPidLabel(this.pid)}: interval since the previous packet by ${CLOCK_NAMES[this.clock ?? 'pts']}`,
      unit: 'ms',
      citation: CITATION,
      type: 'klv-interval',
    });
  }
}

export const klvPacketRateConsistency = defineCheck({
  id: 'klv-packet-rate-consistency',
  version: '2.0.0',
  title: 'KLV packet rate consistency',
  description:
    'One point per interval between KLV packets of a PID (by PTS, else item 2, else stream time), in ms, against the expected or detected period: a dropout is an error at the first packet after the gap, an episode of jitter one warning at its largest deviation.',
  rules: z.object({
    expectedRateHz: z._default(
      z.nullable(z.number().check(z.positive(), z.describe('KLV packets per second expected on each PID; null detects it per PID as the median of its last 255 intervals (MISB ST 0601 leaves the rate to the producer)'))),
      null,
    ),
    tolerancePercent: z._default(
      z.number().check(z.positive(), z.describe('largest deviation of an interval from the period, in % of the period (8.3 ms at 30 Hz); no standard tolerance: klvscope default 25 %')),
      25,
    ),
    maxDeviationMs: z._default(
      z.nullable(z.number().check(z.positive(), z.describe('largest deviation in ms; when set it replaces tolerancePercent (no standard value; null by default)'))),
      null,
    ),
    dropoutPeriods: z._default(
      z.number().check(z.minimum(0.5), z.describe('an interval at least this many periods longer than expected is a dropout: one lost packet adds a whole period, while jitter below half a period each way stays under 0.75 at the defaults; klvscope default 0.75')),
      0.75,
    ),
    jitterQuietMs: z._default(
      z.number().check(z.nonnegative(), z.describe('intervals off the period less than this apart (ms, on the PID clock) are one jitter episode, reported once at its worst; klvscope default 1000 ms')),
      1000,
    ),
    clock: z._default(
      z.enum(['auto', 'pts', 'item2', 'stream-time']).check(z.describe("what times the packets: 'auto' = PTS when the PID carries it, else item 2, else stream time (PCR arrival); arrival times include the multiplexer's placement, so raise the tolerance with 'stream-time'")),
      'auto',
    ),
  }),
  consumes: ['klv-packet', 'metadata-packet'],
  create(ctx) {
    const rules = ctx.rules;
    const rhythms = new Map<number, PidRhythm>();
    const givenPeriodMs = rules.expectedRateHz === null ? null : 1000 / rules.expectedRateHz;
    let klvPackets = 0;

    const clockOf = (p: PendingPacket): Clock | null => {
      if (rules.clock !== 'auto') return rules.clock;
      if (p.pts90kHz !== null) return 'pts';
      if (p.timestampMicros !== null) return 'item2';
      return p.t !== null ? 'stream-time' : null;
    };
    const timeOn = (clock: Clock, p: PendingPacket): number | null => (clock === 'pts' ? p.pts90kHz : clock === 'item2' ? p.timestampMicros : p.t);
    /** later - earlier in ms on the clock (PTS wrap-aware). */
    const deltaMs = (clock: Clock, earlier: number, later: number): number =>
      clock === 'pts' ? (ptsDelta90kHz(earlier, later) / PTS_HZ) * 1000 : clock === 'item2' ? (later - earlier) / 1000 : (later - earlier) * 1000;

    /** Emits a point, or holds it while a jitter episode is open so points stay in order. */
    const emit = (r: PidRhythm, at: PointPosition, finding: PointFinding): void => {
      if (r.episode) r.held.hold(at, finding);
      else ctx.point(at, finding);
    };
    /** The same for a point of the PID's series: an interval within the tolerance. */
    const emitInterval = (r: PidRhythm, at: PointPosition, intervalMs: number): void => {
      const series = r.intervalSeries();
      if (r.episode) r.held.hold(at, { ...series, value: intervalMs });
      else ctx.measure(at, intervalMs, series);
    };
    /** A point that measures nothing: in order with the intervals around it. */
    const note = (r: PidRhythm, at: PointPosition, finding: PointFinding): void => {
      if (r.warmUp.length > 0) r.warmUp.push({ at, finding });
      else emit(r, at, finding);
    };
    const judgeAll = (r: PidRhythm, entries: ReadonlyArray<Measured | Note>, periodMs: number): void => {
      for (const entry of entries) {
        if ('finding' in entry) emit(r, entry.at, entry.finding);
        else judge(r, entry, periodMs);
      }
    };

    const closeEpisode = (r: PidRhythm): void => {
      const e = r.episode;
      if (!e) return;
      r.episode = null;
      r.episodes++;
      const span = e.firstKlvIndex === e.lastKlvIndex ? `at packet ${e.firstKlvIndex}` : `between packets ${e.firstKlvIndex} and ${e.lastKlvIndex}`;
      for (const p of e.points) {
        if (p === e.worst) continue;
        p.finding.message += `; part of the jitter reported at packet ${e.worstKlvIndex}`;
      }
      e.worst.finding.violation = true;
      e.worst.finding.severity = 'warning';
      e.worst.finding.type = 'klv-rate-jitter';
      e.worst.finding.message += `; the largest of ${e.points.length} off-period interval${e.points.length === 1 ? '' : 's'} ${span}`;
      r.held.releaseAll();
    };

    const judge = (r: PidRhythm, m: Measured, periodMs: number): void => {
      r.intervals++;
      if (r.episode && m.clockMs - r.episode.lastOffClockMs > rules.jitterQuietMs) closeEpisode(r);
      const expectedMs = periodMs * m.packets;
      const deviationMs = m.intervalMs - expectedMs;
      const toleranceMs = rules.maxDeviationMs ?? (periodMs * rules.tolerancePercent) / 100;
      const dropout = deviationMs >= rules.dropoutPeriods * periodMs;
      if (!dropout && Math.abs(deviationMs) <= toleranceMs) {
        // One period between neighbours says only what it measures (a point of the series); an interval across untimed packets says which.
        if (m.packets === 1) emitInterval(r, m.at, m.intervalMs);
        else emit(r, m.at, { message: describeInterval(r, m, expectedMs, periodMs), value: m.intervalMs, unit: 'ms', citation: CITATION, type: 'klv-interval' });
        return;
      }
      const base = describeInterval(r, m, expectedMs, periodMs);
      if (dropout) {
        r.dropouts++;
        const missing = Math.max(1, Math.round(m.intervalMs / periodMs) - m.packets);
        emit(r, m.at, {
          message: `${base}: dropout, about ${missing} packet${missing === 1 ? '' : 's'} missing`,
          value: m.intervalMs,
          unit: 'ms',
          violation: true,
          severity: 'error',
          citation: CITATION,
          type: 'klv-dropout',
        });
        return;
      }
      const opening = r.episode === null;
      // Held from the first off-period interval on: the episode's violation is known only when it closes.
      const point = r.held.hold(m.at, {
        message: `${base}: off by ${deviationMs >= 0 ? '+' : ''}${deviationMs.toFixed(3)} ms, more than ${toleranceMs.toFixed(3)} ms`,
        value: m.intervalMs,
        unit: 'ms',
        citation: CITATION,
        type: 'klv-interval-off-rate',
      });
      const e = (r.episode ??= { points: [], worst: point, worstDeviationMs: Math.abs(deviationMs), worstKlvIndex: m.klvIndex, firstKlvIndex: m.klvIndex, lastKlvIndex: m.klvIndex, lastOffClockMs: m.clockMs });
      e.points.push(point);
      e.lastKlvIndex = m.klvIndex;
      e.lastOffClockMs = m.clockMs;
      if (!opening && Math.abs(deviationMs) > e.worstDeviationMs) {
        e.worst = point;
        e.worstDeviationMs = Math.abs(deviationMs);
        e.worstKlvIndex = m.klvIndex;
      }
      if (r.held.size >= MAX_HELD_POINTS) closeEpisode(r);
    };

    const measured = (r: PidRhythm, m: Measured): void => {
      if (givenPeriodMs !== null) {
        judge(r, m, givenPeriodMs);
        return;
      }
      r.median.push(m.intervalMs / m.packets);
      if (r.median.size < WARM_UP_INTERVALS) {
        r.warmUp.push(m);
        return;
      }
      const periodMs = r.median.median() as number;
      const warmUp = r.warmUp;
      r.warmUp = [];
      judgeAll(r, warmUp, periodMs);
      judge(r, m, periodMs);
    };

    /** A packet whose time stamp (if any) is known: measure its interval. */
    const settle = (r: PidRhythm, p: PendingPacket): void => {
      r.clock ??= clockOf(p);
      const clock = r.clock;
      const time = clock === null ? null : timeOn(clock, p);
      if (clock === null || time === null) {
        if (r.lastTime !== null) {
          r.packetsSince++;
          if (r.rewound) r.rewound.packetsSince++;
          note(r, p.at, { message: `${klvPacketLabel(r.pid, p.klvIndex)}: no ${clock === null ? 'time' : CLOCK_NAMES[clock]} to measure an interval by`, citation: CITATION, type: 'klv-interval-unmeasured' });
        }
        return;
      }
      if (r.lastTime === null) {
        r.lastTime = time;
        r.lastKlvIndex = p.klvIndex;
        return;
      }
      let interval = deltaMs(clock, r.lastTime, time);
      let previousKlvIndex = r.lastKlvIndex;
      let packets = r.packetsSince + 1;
      if (interval <= 0 && r.rewound !== null && deltaMs(clock, r.rewound.time, time) > 0) {
        // The clock was reset at the rewound packet: measure from there on.
        interval = deltaMs(clock, r.rewound.time, time);
        previousKlvIndex = r.rewound.klvIndex;
        packets = r.rewound.packetsSince + 1;
      } else if (interval < 0) {
        r.packetsSince++;
        r.rewound = { time, klvIndex: p.klvIndex, packetsSince: 0 };
        note(r, p.at, {
          message: `${klvPacketLabel(r.pid, p.klvIndex)}: ${CLOCK_NAMES[clock]} goes back ${(-interval).toFixed(3)} ms: no interval measured`,
          citation: CITATION,
          type: 'klv-interval-unmeasured',
        });
        return;
      }
      if (interval === 0) return; // one instant: several KLV packets in one PES, or one time twice
      r.rewound = null;
      r.lastClockMs += interval;
      r.lastTime = time;
      r.lastKlvIndex = p.klvIndex;
      r.packetsSince = 0;
      measured(r, { at: p.at, klvIndex: p.klvIndex, previousKlvIndex, clockMs: r.lastClockMs, intervalMs: interval, packets });
    };

    const rhythmOf = (pid: number): PidRhythm => {
      let r = rhythms.get(pid);
      if (!r) rhythms.set(pid, (r = new PidRhythm(pid, new HeldPoints(ctx))));
      return r;
    };

    return {
      'klv-packet'(obs) {
        klvPackets++;
        const r = rhythmOf(obs.pid);
        if (r.pending) settle(r, r.pending);
        r.pending = {
          at: { t: obs.t, offset: obs.offset, packetIndex: obs.packetIndex, pid: obs.pid },
          klvIndex: obs.klvIndex,
          pts90kHz: obs.pts90kHz,
          t: obs.t,
          timestampMicros: null,
        };
      },
      'metadata-packet'(obs) {
        const pending = rhythms.get(obs.pid)?.pending;
        if (pending && pending.klvIndex === obs.klvIndex) pending.timestampMicros = obs.timestampMicros;
      },
      finish() {
        if (klvPackets === 0) {
          ctx.notApplicable('no KLV in this source');
          return;
        }
        const parts: string[] = [];
        for (const r of rhythms.values()) {
          if (r.pending) settle(r, r.pending);
          r.pending = null;
          const periodMs = givenPeriodMs ?? r.median.median();
          const warmUp = r.warmUp;
          r.warmUp = [];
          if (periodMs !== null) judgeAll(r, warmUp, periodMs);
          closeEpisode(r);
          r.held.releaseAll();
          if (r.intervals === 0 || periodMs === null) continue;
          const problems = [r.dropouts > 0 ? countOf(r.dropouts, 'dropout') : '', r.episodes > 0 ? countOf(r.episodes, 'jitter episode') : ''].filter(Boolean);
          parts.push(`${klvPidLabel(r.pid)}: ${(1000 / periodMs).toFixed(3)} Hz ${givenPeriodMs === null ? 'detected' : 'expected'} by ${CLOCK_NAMES[r.clock ?? 'pts']}, ${countOf(r.intervals, 'interval')}${problems.length ? `, ${problems.join(', ')}` : ''}`);
        }
        if (parts.length === 0) {
          ctx.notApplicable(`no KLV PID has two packets with a time to measure an interval by (${countOf(klvPackets, 'KLV packet')})`);
          return;
        }
        const dropouts = [...rhythms.values()].reduce((n, r) => n + r.dropouts, 0);
        const episodes = [...rhythms.values()].reduce((n, r) => n + r.episodes, 0);
        ctx.setVerdict(dropouts > 0 ? 'fail' : episodes > 0 ? 'warn' : 'pass', parts.join('; '));
      },
    };
  },
});

/** 'KLV PID 0x0102 packet 40: 66.733 ms since packet 39 by PTS, expected 33.367 ms (29.970 Hz)': the start of an interval's message. */
function describeInterval(r: PidRhythm, m: Measured, expectedMs: number, periodMs: number): string {
  const since = m.packets === 1 ? `since packet ${m.previousKlvIndex}` : `since packet ${m.previousKlvIndex} (${m.packets - 1} untimed in between)`;
  return `${klvPacketLabel(r.pid, m.klvIndex)}: ${m.intervalMs.toFixed(3)} ms ${since} by ${CLOCK_NAMES[r.clock ?? 'pts']}, expected ${expectedMs.toFixed(3)} ms (${(1000 / periodMs).toFixed(3)} Hz)`;
}
