/**
 * KLV packets whose key is not the ST 0601 UAS Datalink LS key: an unknown
 * key is an error, the legacy EG 0104 universal set a warning (it is still
 * decoded), another known MISB set informational. A file of EG 0104 packets
 * gets one clear summary rather than a storm of findings.
 */
import { defineCheck } from '@klvscope/core';
import { hexPid } from './interval-points.js';

export const klvUniversalKeyErrors = defineCheck({
  id: 'klv-universal-key-errors',
  version: '1.0.0',
  title: 'KLV universal keys',
  description: 'One point per KLV packet whose key is not the ST 0601 key: an error when unknown, a warning for EG 0104, informational for another known MISB set.',
  consumes: ['klv-packet', 'klv-error'],
  create(ctx) {
    let klvPackets = 0;
    let legacy = 0;
    let unknown = 0;
    return {
      'klv-packet'() {
        klvPackets++;
      },
      'klv-error'(obs) {
        if (obs.type !== 'klv-unknown-key') return;
        const isLegacy = obs.details?.keyName === 'eg0104-predator-uav-basic-us';
        if (isLegacy) legacy++;
        else if (obs.severity === 'error') unknown++;
        ctx.point(obs, {
          message: `${obs.pid < 0 ? 'raw KLV' : `KLV PID ${hexPid(obs.pid)}`} packet ${obs.klvIndex ?? '?'}: ${obs.message}`,
          violation: obs.severity !== 'info',
          severity: obs.severity,
          citation: obs.citation,
          type: isLegacy ? 'legacy-eg0104-key' : obs.severity === 'info' ? 'other-misb-key' : 'unknown-key',
        });
      },
      finish() {
        if (klvPackets === 0) ctx.notApplicable('no KLV in this source');
        else if (legacy > 0 && unknown === 0) ctx.setVerdict('warn', `${legacy} EG 0104 (legacy) packets: decoded, but not ST 0601`);
      },
    };
  },
});
