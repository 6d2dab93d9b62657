/**
 * The KLV checks that report one kind of decoder problem: each 'klv-error'
 * observation of their type becomes a point (a violation unless it is
 * informational), with the decoder's severity and citation.
 */
import { defineCheck, type KlvErrorType } from '@klvscope/core';
import { hexPid } from './interval-points.js';

export interface KlvErrorCheckSpec {
  id: string;
  title: string;
  description: string;
  errorType: KlvErrorType;
}

export function defineKlvErrorCheck(spec: KlvErrorCheckSpec) {
  return defineCheck({
    id: spec.id,
    version: '1.0.0',
    title: spec.title,
    description: spec.description,
    consumes: ['klv-packet', 'klv-error'],
    create(ctx) {
      let klvPackets = 0;
      return {
        'klv-packet'() {
          klvPackets++;
        },
        'klv-error'(obs) {
          if (obs.type !== spec.errorType) return;
          const where = obs.pid < 0 ? 'raw KLV' : `KLV PID ${hexPid(obs.pid)}`;
          ctx.point(obs, {
            message: `${where}${obs.klvIndex === null ? '' : ` packet ${obs.klvIndex}`}: ${obs.message}`,
            violation: obs.severity !== 'info',
            severity: obs.severity,
            citation: obs.citation,
            type: obs.type,
          });
        },
        finish() {
          if (klvPackets === 0) ctx.notApplicable('no KLV in this source');
        },
      };
    },
  });
}
