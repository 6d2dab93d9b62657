/**
 * KLV time against stream time, per KLV series (a PID and the standard of
 * its sets): the time stamp's elapsed time (MISB ST 0601 item 2, ST 0903
 * item 2, EG 0104's time stamp) minus the stream's elapsed time since the
 * series' first timed packet. Stream time is the PES PTS when the series
 * carries one (MISB ST 1402), else the PCR-based time at the TS packet that
 * started the PES (`t`: KLV carried without PTS is timed by its arrival, so
 * the drift then includes the multiplexer's placement, a few ms). A packet
 * before the first PCR has no stream time: the series starts at the first
 * packet that has one. One point per packet, the drift in ms; a point within
 * the limit is labelled by its series only (its value is the drift), a
 * violation's message names the packet and the drift.
 *
 * A metadata clock running fast or slow, a clock step or a bad time stamp
 * make the drift leave its baseline. When |drift| passes `maxDriftMs`, that
 * excursion is one violation, placed at its onset: the first packet of the
 * best "flat, then a straight line" fit (klv-drift-onset.ts) over the packets
 * since the baseline began, up to `onsetLookbackSeconds` back. Packets after
 * it that stay beyond the limit are points (type 'klv-drift-beyond-limit'),
 * not more violations; the excursion ends when |drift| is back within half
 * the limit. To place the violation at the onset, points are held back by up
 * to `onsetLookbackSeconds` of stream time before they are emitted.
 */
import { PTS_HZ, defineCheck, ptsDelta90kHz, type CheckContext, type PointSeries } from '@klvscope/core';
import * as z from 'zod/mini';
import { driftOnsetIndex } from './klv-drift-onset.js';
import { DriftPointLog } from './klv-drift-log.js';
import { countOf, klvPacketLabel, klvPidLabel, signedMs, timestampCitation } from './klv-labels.js';
import { KlvSeriesMap } from './klv-series.js';

type StreamClock = 'pts' | 'pcr';
const CLOCK_TEXT: Record<StreamClock, string> = { pts: 'PTS', pcr: 'PCR time at its position' };

class DriftSeries {
  clock: StreamClock | null = null;
  /** The series of the points within the limit, once the clock is known: the drift itself is the point's value. */
  withinLimit: PointSeries;
  origin: { micros: number; stream: number } | null = null;
  /** The held points: every point not yet emitted, in order. */
  readonly log: DriftPointLog;
  /** The measured points (sequence numbers in the log) since the baseline began (the origin, or the end of the last excursion); those before `first` are past the look-back. */
  samples: number[] = [];
  first = 0;
  inExcursion = false;
  excursions = 0;
  measured = 0;
  maxAbsDriftMs = 0;
  constructor(
    readonly pid: number,
    readonly standard: string,
    ctx: CheckContext<unknown>,
  ) {
    const citation = `${timestampCitation(standard)}; MISB ST 1402 (PTS, PCR)`;
    this.withinLimit = { message: '', unit: 'ms', citation, type: 'klv-drift' };
    this.log = new DriftPointLog(ctx, pid, citation, () => this.withinLimit);
  }

  /** 'KLV PID 0x0102 packet 40: KLV time +3.333 ms against the PTS': the start of a violation's message. */
  driftMessage(sequence: number): string {
    return `${klvPacketLabel(this.pid, this.log.klvIndexOf(sequence))}: KLV time ${signedMs(this.log.driftOf(sequence))} against the ${CLOCK_TEXT[this.clock ?? 'pts']}`;
  }
}

export const klvStreamVsKlvDrift = defineCheck({
  id: 'klv-stream-vs-klv-drift',
  version: '2.0.0',
  title: 'KLV time against stream time',
  description:
    "One point per KLV packet with a time stamp: its elapsed time minus the stream's elapsed time since the series' first packet (by PTS, or without PTS by the PCR at the packet's position), in ms. An excursion beyond maxDriftMs is one violation, at its onset.",
  rules: z.object({
    maxDriftMs: z._default(
      z.number().check(z.positive(), z.describe('largest |drift| in ms; no MISB standard gives one: klvscope default 100 ms (three frames at 30 fps), above the few ms of multiplexer placement that KLV timed by the PCR shows; 33 ms (one frame) is a stricter choice for PTS-timed KLV')),
      100,
    ),
    onsetLookbackSeconds: z._default(
      z.number().check(z.positive(), z.describe('how far back (s of stream time) the onset of an excursion is searched, and so how late points are emitted; 120 s lets a 1000 ppm clock error reach 100 ms within it; klvscope default')),
      120,
    ),
  }),
  consumes: ['klv-packet', 'metadata-packet'],
  create(ctx) {
    const { maxDriftMs, onsetLookbackSeconds } = ctx.rules;
    const series = new KlvSeriesMap((pid, standard) => new DriftSeries(pid, standard, ctx));
    let stamped = 0;

    /** Releases held points older than the look-back, and forgets their samples. */
    const releaseOld = (s: DriftSeries, nowX: number): void => {
      const limit = nowX - onsetLookbackSeconds;
      while (s.first < s.samples.length && s.log.elapsedOf(s.samples[s.first]) < limit) s.first++;
      if (s.first >= 1024 && s.first * 2 >= s.samples.length) {
        s.samples = s.samples.slice(s.first);
        s.first = 0;
      }
      s.log.releaseBefore(s.samples[s.first] ?? s.log.next);
    };

    const startExcursion = (s: DriftSeries, latest: number): void => {
      s.inExcursion = true;
      s.excursions++;
      const window = s.samples.slice(s.first);
      const onsetIndex = driftOnsetIndex(
        window.map((m) => s.log.elapsedOf(m)),
        window.map((m) => s.log.driftOf(m)),
      );
      const onset = window[onsetIndex] ?? latest;
      const latestDriftMs = s.log.driftOf(latest);
      const ahead = latestDriftMs > 0 ? 'ahead of' : 'behind';
      let message = s.driftMessage(onset);
      message += onset === latest
        ? `: beyond ±${maxDriftMs} ms (KLV time ${ahead} stream time)`
        : `: onset of a drift that passes ±${maxDriftMs} ms at packet ${s.log.klvIndexOf(latest)} (${signedMs(latestDriftMs)}, KLV time ${ahead} stream time)`;
      // The fit's earliest possible onset, with older samples already past the look-back.
      if (s.first > 0 && onsetIndex <= 1) message += `; it may have begun before the ${onsetLookbackSeconds} s look-back`;
      s.log.mark(onset, 'klv-drift-excursion', message);
    };

    return {
      'metadata-packet'(obs) {
        if (obs.timestampMicros === null) return;
        stamped++;
        const s = series.get(obs.pid, obs.standard);
        if (s.clock === null) {
          s.clock = obs.pts90kHz !== null ? 'pts' : obs.t !== null ? 'pcr' : null;
          if (s.clock !== null) s.withinLimit = { ...s.withinLimit, message: `${klvPidLabel(obs.pid)}: KLV time against the ${CLOCK_TEXT[s.clock]}` };
        }
        const stream = s.clock === 'pts' ? obs.pts90kHz : s.clock === 'pcr' ? obs.t : null;
        if (s.clock === null || stream === null) {
          const why = s.clock === 'pts' ? 'its PES has no PTS' : obs.t === null ? 'no PTS, and no PCR before it' : 'no stream time';
          const unmeasured = s.log.hold(obs, NaN, NaN, obs.klvIndex);
          s.log.mark(unmeasured, 'klv-drift-unmeasured', `${klvPacketLabel(obs.pid, obs.klvIndex)}: drift not measured (${why})`);
          if (s.first >= s.samples.length) s.log.releaseAll();
          return;
        }
        if (s.origin === null) s.origin = { micros: obs.timestampMicros, stream };
        const elapsedMs = s.clock === 'pts' ? (ptsDelta90kHz(s.origin.stream, stream) / PTS_HZ) * 1000 : (stream - s.origin.stream) * 1000;
        const driftMs = (obs.timestampMicros - s.origin.micros) / 1000 - elapsedMs;
        s.measured++;
        s.maxAbsDriftMs = Math.max(s.maxAbsDriftMs, Math.abs(driftMs));
        const elapsedS = elapsedMs / 1000;
        const sample = s.log.hold(obs, elapsedS, driftMs, obs.klvIndex);
        if (s.inExcursion) {
          if (Math.abs(driftMs) <= maxDriftMs / 2) {
            // Back on the line: a new baseline starts here.
            s.inExcursion = false;
            s.samples = [sample];
            s.first = 0;
          } else if (Math.abs(driftMs) > maxDriftMs) {
            s.log.mark(sample, 'klv-drift-beyond-limit', `${s.driftMessage(sample)}, beyond ±${maxDriftMs} ms (the excursion reported earlier)`);
          }
        } else {
          s.samples.push(sample);
          if (Math.abs(driftMs) > maxDriftMs) startExcursion(s, sample);
        }
        if (s.inExcursion) {
          s.samples = [];
          s.first = 0;
        }
        releaseOld(s, elapsedS);
      },
      finish() {
        const klvPackets = ctx.observed('klv-packet');
        for (const s of series.values()) s.log.releaseAll();
        if (klvPackets === 0) {
          ctx.notApplicable('no KLV in this source');
          return;
        }
        if (stamped === 0) {
          ctx.notApplicable(`no time stamp (ST 0601 item 2) in ${countOf(klvPackets, 'KLV packet')}`);
          return;
        }
        const all = series.values();
        const unmeasured = all.filter((s) => s.measured === 0).map((s) => klvPidLabel(s.pid));
        if (all.every((s) => s.measured === 0)) {
          ctx.notApplicable(`${[...new Set(unmeasured)].join(', ')} carr${unmeasured.length === 1 ? 'ies' : 'y'} no PTS and no PCR can stand in`);
          return;
        }
        const parts = all
          .filter((s) => s.measured > 0)
          .map((s) => `${klvPidLabel(s.pid)} (${s.standard}, by ${s.clock === 'pts' ? 'PTS' : 'PCR'}): |drift| up to ${s.maxAbsDriftMs.toFixed(3)} ms${s.excursions > 0 ? `, ${s.excursions} excursion${s.excursions === 1 ? '' : 's'} beyond ±${maxDriftMs} ms` : ''}`);
        if (unmeasured.length > 0) parts.push(`${[...new Set(unmeasured)].join(', ')}: no PTS and no PCR, not measured`);
        const excursions = all.reduce((n, s) => n + s.excursions, 0);
        ctx.setVerdict(excursions > 0 ? 'fail' : 'pass', parts.join('; '));
      },
    };
  },
});
