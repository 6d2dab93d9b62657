/**
 * The KLV checks that report one type of decoder problem (`klv-error`,
 * docs/observations.md): each observation of their type becomes one point at
 * the TS packet that started the PES carrying the KLV packet, a violation
 * unless the decoder rated it informational, with the decoder's severity and
 * citation and the error type as the point's `type`.
 *
 * Applicability: a check about ST 0601 content is not applicable to a
 * source without ST 0601 packets (EG 0104 only, say), and none is applicable
 * to a source without KLV; the reason says which.
 */
import { defineCheck, type KlvErrorObservation, type KlvErrorType } from '@klvscope/core';
import { countOf, klvPacketLabel } from './klv-labels.js';

/** What a source must carry for the check to apply. */
export type KlvErrorScope =
  /** Any KLV stream (even one where no packet could be framed). */
  | 'klv'
  /** Decoded metadata packets (ST 0601, ST 0903 or EG 0104). */
  | 'decoded'
  /** ST 0601 packets (the sets that carry item 1). */
  | 'st0601';

export interface KlvErrorCheckSpec {
  id: string;
  title: string;
  description: string;
  errorType: KlvErrorType;
  scope: KlvErrorScope;
  /** The point's measure, when the problem has one (bytes skipped, ...); default none. */
  measure?: (obs: KlvErrorObservation) => { value: number; unit: string } | null;
}

export function defineKlvErrorCheck(spec: KlvErrorCheckSpec) {
  return defineCheck({
    id: spec.id,
    version: '1.1.0',
    title: spec.title,
    description: spec.description,
    consumes: ['klv-packet', 'metadata-packet', 'klv-error'],
    create(ctx) {
      let st0601 = 0;
      const noted = (obs: KlvErrorObservation): void => {
        if (obs.type !== spec.errorType) return;
        const measure = spec.measure?.(obs) ?? null;
        ctx.point(obs, {
          message: `${klvPacketLabel(obs.pid, obs.klvIndex)}: ${obs.message}`,
          value: measure?.value ?? null,
          unit: measure?.unit ?? null,
          violation: obs.severity !== 'info',
          severity: obs.severity,
          citation: obs.citation,
          type: obs.type,
        });
      };
      const finish = (): void => {
        const klvPackets = ctx.observed('klv-packet');
        if (klvPackets === 0 && ctx.observed('klv-error') === 0) ctx.notApplicable('no KLV in this source');
        else if (spec.scope === 'decoded' && ctx.observed('metadata-packet') === 0) ctx.notApplicable(`no ST 0601, ST 0903 or EG 0104 set among ${countOf(klvPackets, 'KLV packet')}`);
        else if (spec.scope === 'st0601' && st0601 === 0) ctx.notApplicable(`no ST 0601 packet among ${countOf(klvPackets, 'KLV packet')}`);
      };
      // Packets are counted by the run (ctx.observed); only the ST 0601 scope needs to look at them.
      if (spec.scope !== 'st0601') return { 'klv-error': noted, finish };
      return {
        'metadata-packet'(obs) {
          if (obs.standard === 'MISB ST 0601') st0601++;
        },
        'klv-error': noted,
        finish,
      };
    },
  });
}
