import { expect } from 'chai';
import { createSocket } from 'node:dgram';
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { generateTransportStream, parseFaultSpec, type AnyCheck, type RulesSchema } from '@klvscope/core';
import { liveDatabasePath } from '@klvscope/core/store';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { startTestServer } from '../inspection/test-server.js';
import type { LiveFinding, LiveSessionState } from '../../src/live/live-records.js';

describe('a live session that cannot start', function () {
  this.timeout(60_000);

  it('starts nothing, makes no database, and leaves the ended session before it readable from its own database', async () => {
    const errors = BUILT_IN_CHECKS.find((check) => check.id === 'mpegts-errors') as AnyCheck;
    // A plugin whose rules stop parsing once `refuse` is set: the next session's checks cannot be made,
    // after its source is open.
    let refuse = false;
    const rules = Object.create(errors.rules) as RulesSchema;
    rules.safeParse = (input, params) =>
      refuse ? { success: false, error: { issues: [{ code: 'custom', path: [], message: 'refused', input }] } } as never : errors.rules.safeParse(input, params);
    const server = await startTestServer({ checks: [errors, { ...errors, id: 'refusing-rules', rules }] });
    try {
      const port = await freeUdpPort();
      const first = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      const { bytes } = generateTransportStream({ bitrate: 2_000_000, seed: 4, durationSeconds: 1, faults: [parseFaultSpec('drop-packet@0.5')] });
      const sender = createSocket('udp4');
      for (let at = 0; at < bytes.length; at += 1316) {
        await new Promise<void>((resolve, reject) => sender.send(bytes.subarray(at, at + 1316), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      }
      sender.close();
      const findingsOf = async (id: string) => (await server.call(`/sessions/${id}/findings`)).json as { total: number; findings: LiveFinding[] };
      for (let i = 0; i < 50 && (await findingsOf(first.sessionId)).total < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await server.call('/sessions/active', { method: 'DELETE' })).status).to.equal(200);
      const kept = await findingsOf(first.sessionId);
      expect(kept.total).to.equal(2);

      refuse = true;
      const refused = await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${await freeUdpPort()}` } });
      expect(refused.status).to.equal(422);
      expect((await server.call('/sessions/active')).json).to.deep.equal({ active: null });
      expect(await findingsOf(first.sessionId)).to.deep.equal(kept);
      const firstDatabase = liveDatabasePath(server.dataDir, first.sessionId);
      expect(readdirSync(dirname(firstDatabase))).to.deep.equal([basename(firstDatabase)]);
    } finally {
      await server.close();
    }
  });
});
