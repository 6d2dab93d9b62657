/**
 * The decoder delay of each PES: its PTS minus its program's PCR at the PES's
 * position (the PCR carried on, at 27 MHz, by the stream time since the last
 * PCR sample). It must stay within bounds: data leaves the T-STD within 1 s
 * (ISO/IEC 13818-1 2.7.4) and MISB ST 1402 bounds synchronous metadata delay
 * at 1 s; a negative delay is a PTS already in the past.
 */
import { PCR_HZ, defineCheck, ptsMinusPcr90kHz } from '@klvscope/core';
import { z } from 'zod';
import { PidLabels, hexPid } from './interval-points.js';

interface PcrSample {
  pcr27MHz: number;
  t: number;
}

export const mpegtsPcrPtsDrift = defineCheck({
  id: 'mpegts-pcr-pts-drift',
  version: '1.0.0',
  title: 'PCR to PTS drift',
  description: "One point per PES with a PTS: PTS minus the program's PCR at the PES's position (the decoder delay), in ms.",
  rules: z.object({
    minDelayMs: z.number().default(0).describe('smallest allowed PTS - PCR: 0 ms, a PTS in the past cannot be presented (ISO/IEC 13818-1 2.7.4)'),
    maxDelayMs: z.number().positive().default(1000).describe('largest allowed PTS - PCR: 1000 ms (ISO/IEC 13818-1 2.7.4 T-STD; MISB ST 1402 metadata delay)'),
  }),
  consumes: ['pmt', 'pcr', 'pes'],
  create(ctx) {
    const labels = new PidLabels((pid) => `PES on PID ${pid}: decoder delay`);
    /** The PCR PID of each elementary stream, from the PMTs. */
    const pcrPidOf = new Map<number, number>();
    const lastPcr = new Map<number, PcrSample>();
    let measured = 0;
    return {
      pmt(obs) {
        for (const s of obs.streams) pcrPidOf.set(s.pid, obs.pcrPid);
      },
      pcr(obs) {
        if (obs.t !== null) lastPcr.set(obs.pid, { pcr27MHz: obs.pcr27MHz, t: obs.t });
      },
      pes(obs) {
        if (obs.pts90kHz === null || obs.t === null) return;
        const pcrPid = pcrPidOf.get(obs.pid);
        const sample = pcrPid === undefined ? undefined : lastPcr.get(pcrPid);
        if (!sample) return;
        measured++;
        const pcrAtPes = sample.pcr27MHz + Math.round((obs.t - sample.t) * PCR_HZ);
        const delayMs = ptsMinusPcr90kHz(obs.pts90kHz, pcrAtPes) / 90;
        const outside = delayMs < ctx.rules.minDelayMs || delayMs > ctx.rules.maxDelayMs;
        ctx.point(obs, {
          message: outside
            ? `PES on PID ${hexPid(obs.pid)}: PTS - PCR = ${delayMs.toFixed(1)} ms, outside [${ctx.rules.minDelayMs}, ${ctx.rules.maxDelayMs}] ms`
            : labels.get(obs.pid),
          value: delayMs,
          unit: 'ms',
          violation: outside,
          citation: 'ISO/IEC 13818-1 2.7.4; MISB ST 1402',
          type: outside ? (delayMs < ctx.rules.minDelayMs ? 'pts-before-pcr' : 'pts-too-late') : 'decoder-delay',
        });
      },
      finish() {
        if (measured === 0) ctx.notApplicable('no PES with a PTS on a program with a PCR in this source');
      },
    };
  },
});
