import { expect } from 'chai';
import { BitrateMeter } from '../../src/relay/bitrate-meter.js';

/** One TS packet of `pid` with continuity_counter `cc`, with payload unless told otherwise. */
function packet(pid: number, cc: number, payload = true): number[] {
  const bytes = new Array<number>(188).fill(0xff);
  bytes[0] = 0x47;
  bytes[1] = (pid >> 8) & 0x1f;
  bytes[2] = pid & 0xff;
  // adaptation_field_control: 01 payload only, 10 adaptation field only.
  bytes[3] = (payload ? 0x10 : 0x20) | cc;
  if (!payload) bytes[4] = 183;
  return bytes;
}

function datagram(...packets: number[][]): Uint8Array {
  return Uint8Array.from(packets.flat());
}

describe('relay: the bitrate meter counts packets and continuity errors per PID', () => {
  it('counts a counter that skips as one error, and a repeated packet or one without payload as none (ISO 13818-1 2.4.3.3)', () => {
    const meter = new BitrateMeter(0);
    meter.input(datagram(packet(0x100, 0), packet(0x100, 1), packet(0x100, 1), packet(0x100, 1, false), packet(0x100, 2)));
    meter.input(datagram(packet(0x100, 5), packet(0x100, 6), packet(0x101, 9), packet(0x101, 10)));
    meter.input(datagram(packet(0x100, 15), packet(0x100, 0)));
    meter.tick(Date.parse('2026-01-01T00:00:01Z'), 1000);
    expect(meter.latest?.pids).to.deep.equal([
      { pid: 0x100, bitrate: 9 * 188 * 8, packets: 9, continuityErrors: 2 },
      { pid: 0x101, bitrate: 2 * 188 * 8, packets: 2, continuityErrors: 0 },
    ]);
  });

  it('ignores the counters of null packets, and keeps totals across readings until the channel starts again', () => {
    const meter = new BitrateMeter(0);
    meter.input(datagram(packet(0x1fff, 0), packet(0x1fff, 0), packet(0x100, 3)));
    meter.tick(Date.parse('2026-01-01T00:00:01Z'), 1000);
    meter.input(datagram(packet(0x1fff, 7), packet(0x100, 7)));
    meter.tick(Date.parse('2026-01-01T00:00:02Z'), 1000);
    expect(meter.latest?.pids.map((p) => [p.pid, p.packets, p.continuityErrors])).to.deep.equal([
      [0x100, 2, 1],
      [0x1fff, 3, 0],
    ]);
    meter.restartInput();
    // A new input: no counter to continue from, totals from zero.
    meter.input(datagram(packet(0x100, 12)));
    meter.tick(Date.parse('2026-01-01T00:00:03Z'), 1000);
    expect(meter.latest?.pids.map((p) => [p.pid, p.packets, p.continuityErrors])).to.deep.equal([[0x100, 1, 0]]);
  });
});
