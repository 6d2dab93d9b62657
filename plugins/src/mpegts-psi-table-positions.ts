/** Where the PAT and PMT sections are: one informational point each, with the interval since the previous one of its table. */
import { defineCheck } from '@klvscope/core';
import { PidLabels } from './interval-points.js';

export const mpegtsPsiTablePositions = defineCheck({
  id: 'mpegts-psi-table-positions',
  version: '1.0.0',
  title: 'PAT/PMT positions',
  description: "One point per PAT and PMT section (type 'PAT' or 'PMT'), with the interval since the previous section of the same table and PID; no violations.",
  consumes: ['psi-section'],
  create(ctx) {
    const patLabels = new PidLabels((pid) => `PAT section on PID ${pid}`);
    const pmtLabels = new PidLabels((pid) => `PMT section on PID ${pid}`);
    const last = new Map<number, number>();
    let sections = 0;
    return {
      'psi-section'(obs) {
        if (obs.tableType !== 'PAT' && obs.tableType !== 'PMT') return;
        sections++;
        const previous = last.get(obs.pid);
        if (obs.t !== null) last.set(obs.pid, obs.t);
        const intervalMs = previous !== undefined && obs.t !== null ? (obs.t - previous) * 1000 : null;
        ctx.point(obs, {
          message: obs.tableType === 'PAT' ? patLabels.get(obs.pid) : pmtLabels.get(obs.pid),
          value: intervalMs,
          unit: intervalMs === null ? null : 'ms',
          citation: 'ISO/IEC 13818-1 2.4.4',
          type: obs.tableType,
        });
      },
      finish() {
        if (sections === 0) ctx.notApplicable('no PAT or PMT section in this source');
      },
    };
  },
});
