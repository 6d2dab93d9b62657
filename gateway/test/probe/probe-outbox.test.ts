import { expect } from 'chai';
import type { ProbeBatch, ProbeEventRow } from '@klvscope/adapters/postgres';
import { ProbeOutbox } from '../../src/probe/probe-outbox.js';

/** A record of about `bytes` bytes in the outbox's measure. */
function row(seq: number, bytes = 100): ProbeEventRow {
  return { sessionId: 's', run: 1, seq, body: 'x'.repeat(bytes - 33) };
}

describe('the probe outbox (what a probe keeps while the database is away)', function () {
  let outbox: ProbeOutbox | undefined;
  afterEach(async () => outbox?.close(0));

  it('keeps every record while writes fail and delivers them in order, once, when a write succeeds again', async function () {
    const written: ProbeBatch[] = [];
    let failing = true;
    const changes: boolean[] = [];
    outbox = new ProbeOutbox({
      limitBytes: 1_000_000,
      write: (batch) => (failing ? Promise.reject(new Error('connection refused')) : (written.push(batch), Promise.resolve())),
      onDeliveryChange: (isFailing) => changes.push(isFailing),
    });
    for (let seq = 1; seq <= 5; seq++) outbox.add('findings', row(seq), true);
    for (let seq = 1; seq <= 3; seq++) outbox.add('statistics', row(seq));
    await outbox.flush();
    expect(outbox.bufferedBytes).to.equal(800);
    failing = false;
    await outbox.flush();
    expect(written.flatMap((batch) => batch.findings.map((r) => r.seq))).to.deep.equal([1, 2, 3, 4, 5]);
    expect(written.flatMap((batch) => batch.statistics.map((r) => r.seq))).to.deep.equal([1, 2, 3]);
    expect(outbox.bufferedBytes).to.equal(0);
    expect(changes).to.deep.equal([true, false]);
    expect(outbox.dropped).to.deep.equal({ findings: 0, statistics: 0, track: 0 });
  });

  it('drops the oldest track points first, then statistics, then findings, past its bound, and counts them', async function () {
    outbox = new ProbeOutbox({ limitBytes: 1_000, write: () => Promise.reject(new Error('connection refused')) });
    for (let seq = 1; seq <= 4; seq++) outbox.add('findings', row(seq));
    for (let seq = 1; seq <= 4; seq++) outbox.add('statistics', row(seq));
    for (let seq = 1; seq <= 4; seq++) outbox.add('track', row(seq));
    // 12 records of 100 bytes against 1,000: two dropped, the oldest track points.
    expect(outbox.dropped).to.deep.equal({ findings: 0, statistics: 0, track: 2 });
    for (let seq = 5; seq <= 9; seq++) outbox.add('findings', row(seq));
    // Five more: the other two track points, then the three oldest statistics.
    expect(outbox.dropped).to.deep.equal({ findings: 0, statistics: 3, track: 4 });
    expect(outbox.bufferedBytes).to.be.at.most(1_000);
    await outbox.flush();
    // A failed write puts its records back and keeps to the bound.
    expect(outbox.bufferedBytes).to.equal(1_000);
  });
});
