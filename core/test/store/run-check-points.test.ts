/**
 * A process run's points stored in blocks packed by column, in parts of
 * their own: what goes in comes back exactly, paged and filtered across
 * blocks and parts.
 */
import { expect } from 'chai';
import type { Point } from '../../src/kernel/check-point.js';
import { PointBlockBuilder, unpackPointBlock } from '../../src/store/point-block-codec.js';
import { createRunPointWriter } from '../../src/store/run-point-writer.js';
import { StoredRun } from '../../src/store/stored-run.js';
import { useTemporaryFolder } from './temporary-folder.js';

/** Point `i` of a check: a violation every seventh, a typed point every third, null and special values now and then. */
function pointOf(i: number): Point {
  const point: Point = {
    t: i % 5 === 0 ? null : i / 90_000,
    offset: i * 188,
    packetIndex: i,
    pid: i % 3 === 0 ? -1 : 0x100 + (i % 2),
    value: i % 11 === 0 ? null : i % 13 === 0 ? NaN : i % 17 === 0 ? -0 : i * 1.5,
    unit: i % 2 === 0 ? 'ms' : null,
    violation: i % 7 === 0,
    severity: i % 7 === 0 ? 'error' : 'info',
    message: i % 7 === 0 ? 'too long' : 'interval',
    citation: i % 7 === 0 ? 'ISO 13818-1 2.4.3.5' : null,
  };
  return i % 3 === 0 ? { ...point, type: 'gap' } : point;
}

describe('points stored in blocks', function () {
  this.timeout(30_000);
  const folder = useTemporaryFolder();

  it('packs and unpacks a block exactly: nulls, NaN, -0, negative PIDs', () => {
    const block = new PointBlockBuilder(4);
    const points = [0, 11, 13, 17].map(pointOf);
    points.forEach((p, series) => block.add(p.t, p.offset, p.packetIndex, p.pid, p.value, series));
    expect(block.full).to.equal(true);
    const unpacked = unpackPointBlock(block.take(), 4);
    expect(unpacked).to.deep.equal(points.map((p, series) => ({ t: p.t, offset: p.offset, packetIndex: p.packetIndex, pid: p.pid, value: p.value, series })));
    expect(Object.is(unpacked[3].value, -0)).to.equal(true);
    expect(block.count).to.equal(0);
  });

  it('packs the same bytes into the array shared for a statement as into a new one, a larger block before a smaller', () => {
    const sizes = [9, 4, 6];
    const blocks = sizes.map((size) => {
      const fresh = new PointBlockBuilder(size);
      const shared = new PointBlockBuilder(size);
      for (let i = 0; i < size; i++) {
        const p = pointOf(i * size);
        fresh.add(p.t, p.offset, p.packetIndex, p.pid, p.value, i);
        shared.add(p.t, p.offset, p.packetIndex, p.pid, p.value, i);
      }
      return { fresh: fresh.take(), shared: Uint8Array.from(shared.takeForStatement()) };
    });
    blocks.forEach(({ fresh, shared }, index) => expect(Buffer.from(shared).equals(Buffer.from(fresh)), `block ${index}`).to.be.true);
    expect(blocks[1].fresh.length).to.be.lessThan(blocks[0].fresh.length);
  });

  it('reads back every point of each check, in order, and pages and filters them across blocks and parts as over a list', async () => {
    const run = await StoredRun.open(folder.path, 'points', { create: true, partBytes: 1, rowsPerTransaction: 50 });
    try {
      const writer = await createRunPointWriter(run, 'key');
      const written: Record<string, Point[]> = { a: [], b: [] };
      for (let i = 0; i < 1000; i++) {
        const checkId = i % 4 === 0 ? 'b' : 'a';
        const point = pointOf(i);
        written[checkId].push(point);
        writer.write(point, checkId);
      }
      expect(await writer.finish()).to.deep.equal({ a: 750, b: 250 });
      expect(run.pointParts('key')?.parts.length, 'parts').to.be.greaterThan(3);
      for (const checkId of ['a', 'b']) {
        const all = written[checkId];
        expect(run.readCheckPoints('key', checkId, { limit: -1, offset: 0 })).to.deep.equal({ total: all.length, points: all });
        expect(run.readCheckPoints('key', checkId, { limit: 70, offset: 123 }).points).to.deep.equal(all.slice(123, 193));
        const violations = all.filter((p) => p.violation);
        expect(run.readCheckPoints('key', checkId, { limit: 20, offset: 5, violationsOnly: true })).to.deep.equal({ total: violations.length, points: violations.slice(5, 25) });
        const gaps = all.filter((p) => p.type === 'gap');
        expect(run.readCheckPoints('key', checkId, { limit: -1, offset: 40, types: ['gap'] })).to.deep.equal({ total: gaps.length, points: gaps.slice(40) });
      }
    } finally {
      await run.close();
    }
  });

  it('keeps each point\'s series when a check\'s points take turns among more series than it remembers', async () => {
    const run = await StoredRun.open(folder.path, 'turns', { create: true });
    try {
      const writer = await createRunPointWriter(run, 'key');
      // Twelve series in turn, then the first three again and again: past the writer's recent list, and back into it.
      const points = Array.from({ length: 600 }, (_, i) => ({ ...pointOf(1), message: `series ${i < 300 ? i % 12 : i % 3}` }));
      points.forEach((point) => writer.write(point, 'a'));
      await writer.finish();
      expect(run.readCheckPoints('key', 'a', { limit: -1, offset: 0 })).to.deep.equal({ total: points.length, points });
    } finally {
      await run.close();
    }
  });
});

