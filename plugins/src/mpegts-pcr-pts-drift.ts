/**
 * mpegts-pcr-pts-drift: the decoder delay of every PES with a PTS, PTS minus
 * the PCR of its program at the PES's position, in ms.
 *
 * The method: ISO/IEC 13818-1 2.4.2.2 times every byte by linear
 * interpolation between PCRs, and the engine's stream time `t` is exactly
 * that interpolation (on the time-base PCR PID). So the program's PCR at the
 * PES's first packet is its last PCR sample carried on by the stream time
 * elapsed since: PCR(PES) = PCR(last) + (t(PES) - t(last)) * 27 MHz, taken
 * after the sample at the same packet when the PES starts in a PCR's packet.
 * Across a PCR jump the last sample is already of the new time base, so the
 * delay follows the PCR the decoder would lock to. The program of a PES PID
 * and its PCR PID come from the PMTs.
 *
 * The bounds: a PTS before the PCR is presented late (data must not reach
 * the decoder after its presentation time), and the T-STD (ISO/IEC 13818-1
 * 2.4.2) lets data stay in the buffers at most 1 s, which MISB ST 1402
 * also sets for metadata.
 */
import { NULL_PID, PCR_HZ, PID_COUNT, defineCheck, ptsMinusPcr90kHz, PTS_HZ } from '@klvscope/core';
import * as z from 'zod/mini';
import { DECODER_DELAY_CLAUSE } from './mpegts-clauses.js';
import { PidSeries } from './mpegts-pid-series.js';
import { formatMs, hexPid, roundMs } from './mpegts-stream-time.js';

export const mpegtsPcrPtsDrift = defineCheck({
  id: 'mpegts-pcr-pts-drift',
  version: '1.1.0',
  title: 'PCR to PTS drift',
  description: "One point per PES with a PTS: PTS minus its program's PCR at the PES's position (the decoder delay), in ms; a violation outside [minDelayMs, maxDelayMs].",
  rules: z.object({
    minDelayMs: z._default(
      z.number().check(z.describe('smallest allowed PTS - PCR, ms (0: a PTS already past when its PES arrives cannot be presented on time; ISO/IEC 13818-1 2.4.2 T-STD)')),
      0,
    ),
    maxDelayMs: z._default(
      z.number().check(z.positive(), z.describe('largest allowed PTS - PCR, ms (1000: ISO/IEC 13818-1 2.4.2 T-STD, data leaves the buffers within 1 s; MISB ST 1402 synchronous metadata delay at most 1 s)')),
      1000,
    ),
  }),
  consumes: ['pmt', 'pcr', 'pes'],
  create(ctx) {
    const { minDelayMs, maxDelayMs } = ctx.rules;
    const series = new PidSeries((pid) => `PES on PID ${pid}: PTS - PCR`, { unit: 'ms', citation: DECODER_DELAY_CLAUSE, type: 'decoder-delay' });
    // By PID in arrays, not Maps: looked up for every PES and PCR.
    /** The PCR PID of each elementary stream PID, from the PMTs; -1 when none. */
    const pcrPidOf = new Int16Array(PID_COUNT).fill(-1);
    /** The last PCR with a stream time of each PCR PID: its value, and its time (NaN before any). */
    const lastPcr27MHz = new Float64Array(PID_COUNT);
    const lastPcrT = new Float64Array(PID_COUNT).fill(NaN);
    let withPts = 0;
    let measured = 0;
    return {
      pmt(pmt) {
        for (const s of pmt.streams) pcrPidOf[s.pid & 0x1fff] = pmt.pcrPid === NULL_PID ? -1 : pmt.pcrPid;
      },
      pcr(pcr) {
        if (pcr.t === null) return;
        lastPcr27MHz[pcr.pid & 0x1fff] = pcr.pcr27MHz;
        lastPcrT[pcr.pid & 0x1fff] = pcr.t;
      },
      pes(pes) {
        if (pes.pts90kHz === null) return;
        withPts++;
        const pcrPid = pcrPidOf[pes.pid & 0x1fff];
        if (pcrPid < 0 || Number.isNaN(lastPcrT[pcrPid]) || pes.t === null) return;
        measured++;
        const pcrAtPes27MHz = lastPcr27MHz[pcrPid] + (pes.t - lastPcrT[pcrPid]) * PCR_HZ;
        const delayMs = roundMs((ptsMinusPcr90kHz(pes.pts90kHz, pcrAtPes27MHz) / PTS_HZ) * 1000);
        const early = delayMs < minDelayMs;
        if (!early && delayMs <= maxDelayMs) {
          ctx.measure(pes, delayMs, series.get(pes.pid));
          return;
        }
        ctx.point(pes, {
          message: early
            ? `PES on PID ${hexPid(pes.pid)}: PTS - PCR = ${formatMs(delayMs)}, below ${formatMs(minDelayMs)}: the PTS is past when the PES arrives`
            : `PES on PID ${hexPid(pes.pid)}: PTS - PCR = ${formatMs(delayMs)}, above ${formatMs(maxDelayMs)}: longer than data may wait in the decoder`,
          value: delayMs,
          unit: 'ms',
          violation: true,
          severity: 'error',
          citation: DECODER_DELAY_CLAUSE,
          type: early ? 'pts-before-pcr' : 'pts-too-late',
        });
      },
      finish() {
        if (withPts === 0) ctx.notApplicable('no PES with a PTS in the stream');
        else if (measured === 0) ctx.notApplicable('no PES with a PTS on a program whose PCR was seen before it');
      },
    };
  },
});
