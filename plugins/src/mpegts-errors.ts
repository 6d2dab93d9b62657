/**
 * The ETSI TR 101 290 view of a transport stream: every problem the parser
 * reports (priorities 1 and 2: sync, continuity, transport error, CRC,
 * PAT/PMT errors, malformed headers) and the timing indicators computed from
 * the observations:
 * - 1.3 PAT missing and 1.5 PMT missing (sections further apart than the limit);
 * - 1.6 PID missing: an elementary stream the PMT names shows no sign of life
 *   (a PES start or a PCR) for longer than the limit, or never appears — the
 *   observation model has no per-packet event, so these are its signs of life;
 * - 2.3a PCR repetition, 2.3b PCR discontinuity (a step outside 0..limit
 *   without discontinuity_indicator);
 * - 2.4 PCR accuracy, measured only over constant-bitrate stretches: each PCR
 *   must lie within the limit of the line through the last accurate PCR at
 *   its byte rate (an inaccurate PCR does not move the line, so one bad PCR
 *   is one finding); a PCR off that line by more than 0.1 % of the interval
 *   starts a new line unreported: the rate changed, a variable-rate stretch;
 * - 2.5 PTS repetition per PES PID.
 * Only problems become points; each point's `type` names its indicator, for
 * the REST `types` filter.
 */
import { PCR_HZ, defineCheck, pcrDelta27MHz, type PointPosition } from '@klvscope/core';
import { z } from 'zod';
import { hexPid } from './interval-points.js';

/** Two byte rates within this fraction of each other make a constant-bitrate stretch. */
const CBR_TOLERANCE = 0.001;

interface PcrHistory {
  pcr27MHz: number;
  offset: number;
  t: number | null;
}

/** The last PCR found accurate, and the byte rate (27 MHz ticks per byte) that led to it: the line later PCRs are measured against. */
interface AccuracyAnchor {
  pcr27MHz: number;
  offset: number;
  rate: number | null;
}

export const mpegtsErrors = defineCheck({
  id: 'mpegts-errors',
  version: '1.0.0',
  title: 'MPEG-TS errors (TR 101 290)',
  description: 'Every transport stream problem the parser reports, and the TR 101 290 priority 1 and 2 timing indicators.',
  rules: z.object({
    patMaxIntervalMs: z.number().positive().default(250).describe('PAT missing beyond this interval: 250 ms (MISB ST 1402); TR 101 290 1.3: 500 ms'),
    pmtMaxIntervalMs: z.number().positive().default(250).describe('PMT missing beyond this interval: 250 ms (MISB ST 1402); TR 101 290 1.5: 500 ms'),
    pidMaxGapMs: z.number().positive().default(5000).describe('PID missing beyond this gap: TR 101 290 1.6 leaves the period to the user; default 5 s'),
    pcrMaxIntervalMs: z.number().positive().default(100).describe('PCR repetition limit: 100 ms (ISO/IEC 13818-1 2.7.2, MISB ST 1402); TR 101 290 2.3a: 40 ms'),
    pcrMaxJumpMs: z.number().positive().default(100).describe('PCR discontinuity: a step outside 0..100 ms without discontinuity_indicator (TR 101 290 2.3b)'),
    pcrAccuracyNs: z.number().positive().default(500).describe('PCR accuracy: ±500 ns (ISO/IEC 13818-1 2.4.2.2, TR 101 290 2.4)'),
    ptsMaxIntervalMs: z.number().positive().default(700).describe('PTS repetition limit: 700 ms (TR 101 290 2.5, MISB ST 1402)'),
  }),
  consumes: ['ts-error', 'psi-section', 'pmt', 'pcr', 'pes', 'pid-stats'],
  create(ctx) {
    const rules = ctx.rules;
    const lastTable = new Map<number, number>();
    const lastPcr = new Map<number, PcrHistory>();
    const anchors = new Map<number, AccuracyAnchor>();
    const lastPts = new Map<number, number>();
    /** Elementary stream PIDs of the PMTs, with where they were declared and their last sign of life. */
    const declared = new Map<number, { at: PointPosition; lastSeen: number | null }>();
    const carried = new Set<number>();
    const problem = (at: PointPosition, type: string, citation: string, message: string, value: number | null = null, unit: string | null = null): void => {
      ctx.point(at, { message, value, unit, violation: true, severity: 'error', citation, type });
    };
    const alive = (pid: number, t: number | null, at: PointPosition): void => {
      const es = declared.get(pid);
      if (!es || t === null) return;
      if (es.lastSeen !== null && (t - es.lastSeen) * 1000 > rules.pidMaxGapMs) {
        const gapMs = (t - es.lastSeen) * 1000;
        problem(at, 'pid-missing', 'ETSI TR 101 290 1.6', `PID ${hexPid(pid)} absent for ${gapMs.toFixed(0)} ms`, gapMs, 'ms');
      }
      es.lastSeen = t;
    };
    /** ETSI TR 101 290 2.4 against the line through the last accurate PCR. */
    const accuracy = (pid: number, pcr27MHz: number, offset: number, at: PointPosition): void => {
      const anchor = anchors.get(pid);
      if (!anchor || offset <= anchor.offset) return;
      const ticks = pcrDelta27MHz(anchor.pcr27MHz, pcr27MHz);
      const bytes = offset - anchor.offset;
      const rate = ticks / bytes;
      const next = { pcr27MHz, offset, rate };
      if (anchor.rate === null) {
        anchors.set(pid, next);
        return;
      }
      const errorTicks = ticks - anchor.rate * bytes;
      const errorNs = (errorTicks / PCR_HZ) * 1e9;
      if (Math.abs(errorNs) <= rules.pcrAccuracyNs) {
        anchors.set(pid, next);
      } else if (Math.abs(errorTicks) > CBR_TOLERANCE * ticks) {
        // Off by more than 0.1 % of the interval: the rate changed (variable bitrate); measure from here on.
        anchors.set(pid, next);
      } else {
        problem(at, 'pcr-accuracy', 'ETSI TR 101 290 2.4', `PCR on PID ${hexPid(pid)}: ${errorNs.toFixed(0)} ns off the constant-bitrate line (limit ±${rules.pcrAccuracyNs} ns)`, errorNs, 'ns');
      }
    };
    return {
      'ts-error'(obs) {
        ctx.point(obs, {
          message: obs.message,
          violation: obs.severity !== 'info',
          severity: obs.severity,
          citation: obs.tr101290 ? `ETSI TR 101 290 ${obs.tr101290}` : 'ISO/IEC 13818-1',
          type: obs.type,
        });
      },
      'psi-section'(obs) {
        if ((obs.tableType !== 'PAT' && obs.tableType !== 'PMT') || obs.t === null) return;
        const previous = lastTable.get(obs.pid);
        lastTable.set(obs.pid, obs.t);
        if (previous === undefined) return;
        const intervalMs = (obs.t - previous) * 1000;
        const pat = obs.tableType === 'PAT';
        const limit = pat ? rules.patMaxIntervalMs : rules.pmtMaxIntervalMs;
        if (intervalMs > limit) {
          const what = pat ? 'PAT' : `PMT on PID ${hexPid(obs.pid)}`;
          problem(obs, pat ? 'pat-missing' : 'pmt-missing', pat ? 'ETSI TR 101 290 1.3' : 'ETSI TR 101 290 1.5', `${what} absent for ${intervalMs.toFixed(0)} ms (limit ${limit} ms)`, intervalMs, 'ms');
        }
      },
      pmt(obs) {
        for (const s of obs.streams) if (!declared.has(s.pid)) declared.set(s.pid, { at: obs, lastSeen: obs.t });
      },
      pcr(obs) {
        alive(obs.pid, obs.t, obs);
        const previous = lastPcr.get(obs.pid);
        lastPcr.set(obs.pid, { pcr27MHz: obs.pcr27MHz, offset: obs.offset, t: obs.t });
        if (!previous) {
          anchors.set(obs.pid, { pcr27MHz: obs.pcr27MHz, offset: obs.offset, rate: null });
          return;
        }
        if (previous.t !== null && obs.t !== null) {
          const intervalMs = (obs.t - previous.t) * 1000;
          if (intervalMs > rules.pcrMaxIntervalMs) {
            problem(obs, 'pcr-repetition', 'ETSI TR 101 290 2.3a', `PCR on PID ${hexPid(obs.pid)}: ${intervalMs.toFixed(1)} ms since the previous one (limit ${rules.pcrMaxIntervalMs} ms)`, intervalMs, 'ms');
          }
        }
        const stepMs = (pcrDelta27MHz(previous.pcr27MHz, obs.pcr27MHz) / PCR_HZ) * 1000;
        const restart = { pcr27MHz: obs.pcr27MHz, offset: obs.offset, rate: null };
        if (obs.discontinuity) {
          anchors.set(obs.pid, restart);
          return;
        }
        if (stepMs < 0 || stepMs > rules.pcrMaxJumpMs) {
          problem(obs, 'pcr-discontinuity', 'ETSI TR 101 290 2.3b', `PCR on PID ${hexPid(obs.pid)}: step of ${stepMs.toFixed(1)} ms without discontinuity_indicator`, stepMs, 'ms');
          anchors.set(obs.pid, restart);
          return;
        }
        accuracy(obs.pid, obs.pcr27MHz, obs.offset, obs);
      },
      pes(obs) {
        alive(obs.pid, obs.t, obs);
        if (obs.pts90kHz === null || obs.t === null) return;
        const previous = lastPts.get(obs.pid);
        lastPts.set(obs.pid, obs.t);
        if (previous === undefined) return;
        const intervalMs = (obs.t - previous) * 1000;
        if (intervalMs > rules.ptsMaxIntervalMs) {
          problem(obs, 'pts-repetition', 'ETSI TR 101 290 2.5', `PTS on PID ${hexPid(obs.pid)}: ${intervalMs.toFixed(0)} ms since the previous one (limit ${rules.ptsMaxIntervalMs} ms)`, intervalMs, 'ms');
        }
      },
      'pid-stats'(obs) {
        carried.add(obs.pid);
      },
      finish() {
        for (const [pid, es] of declared) {
          if (!carried.has(pid)) problem(es.at, 'pid-missing', 'ETSI TR 101 290 1.6', `PID ${hexPid(pid)} is declared in the PMT but never carried`);
        }
      },
    };
  },
});
