import { expect } from 'chai';
import { NO_RELAY_ALARMS, type RelayChannelAlarms } from '@klvscope/core/store';
import { ChannelAlarms } from '../../src/relay/channel-alarms.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** Alarms of channel 'eo' with these limits, the log messages they write, and a clock in seconds from T0. */
function alarmsOf(limits: Partial<RelayChannelAlarms>): { alarms: ChannelAlarms; log: string[]; at: (seconds: number) => number } {
  const log: string[] = [];
  const alarms = new ChannelAlarms('eo', { ...NO_RELAY_ALARMS, ...limits }, (type, message) => log.push(`${type}: ${message}`));
  alarms.started();
  return { alarms, log, at: (seconds) => T0 + seconds * 1000 };
}

describe("relay: a channel's alarms (minimum and maximum bitrate, per PID too, and maximum silence)", () => {
  it('does not judge the first reading after a start, which covers part of a second', () => {
    const { alarms, log, at } = alarmsOf({ minBitrate: 1_000_000 });
    alarms.reading(10_000, [], at(1));
    expect([alarms.active(), log]).to.deep.equal([[], []]);
    alarms.reading(10_000, [], at(2));
    expect(alarms.active().map((a) => a.kind)).to.deep.equal(['bitrate-low']);
  });

  it('raises a low-bitrate alarm once with a message, keeps it (with the latest value) while the rate stays low, and clears it with a message when the rate is back', () => {
    const { alarms, log, at } = alarmsOf({ minBitrate: 1_000_000 });
    alarms.reading(2_000_000, [], at(1));
    alarms.reading(2_000_000, [], at(2));
    expect(alarms.active()).to.deep.equal([]);
    alarms.reading(400_000, [], at(3));
    alarms.reading(300_000, [], at(4));
    expect(alarms.active()).to.deep.equal([
      { kind: 'bitrate-low', pid: null, limit: 1_000_000, value: 300_000, since: new Date(at(3)).toISOString(), message: 'input bitrate below its minimum: 300.0 kb/s (minimum 1.000 Mb/s)' },
    ]);
    alarms.reading(1_500_000, [], at(6));
    expect(alarms.active()).to.deep.equal([]);
    expect(log).to.deep.equal([
      'alarm: channel eo: alarm: input bitrate below its minimum: 400.0 kb/s (minimum 1.000 Mb/s)',
      'alarm-cleared: channel eo: alarm cleared: input bitrate below its minimum (1.500 Mb/s, back within 1.000 Mb/s after 3 s)',
    ]);
  });

  it('judges the mean of the last windowSeconds readings: one low second among steady ones raises nothing, a lasting drop does', () => {
    const { alarms, log, at } = alarmsOf({ minBitrate: 1_000_000, windowSeconds: 4 });
    alarms.reading(0, [], at(0));
    for (const [second, rate] of [[1, 2_000_000], [2, 2_000_000], [3, 2_000_000], [4, 200_000], [5, 2_000_000]] as const) alarms.reading(rate, [], at(second));
    expect(alarms.active()).to.deep.equal([]);
    // 200 k, 200 k, 200 k and 2 M: a mean of 650 kb/s.
    for (const second of [6, 7, 8]) alarms.reading(200_000, [], at(second));
    expect(alarms.active().map((a) => [a.kind, a.value])).to.deep.equal([['bitrate-low', 650_000]]);
    expect(log).to.deep.equal(['alarm: channel eo: alarm: input bitrate (mean of 4 s) below its minimum: 650.0 kb/s (minimum 1.000 Mb/s)']);
  });

  it('judges each PID against its own limits, a PID absent from the second at 0 b/s', () => {
    const { alarms, at } = alarmsOf({ maxBitrate: 10_000_000, pids: [{ pid: 0x100, minBitrate: null, maxBitrate: 1_000_000 }, { pid: 0x102, minBitrate: 10_000, maxBitrate: null }] });
    alarms.reading(0, [], at(1));
    alarms.reading(3_000_000, [{ pid: 0x100, bitrate: 2_500_000 }], at(2));
    expect(alarms.active().map((a) => [a.kind, a.pid, a.value])).to.deep.equal([
      ['bitrate-high', 0x100, 2_500_000],
      ['bitrate-low', 0x102, 0],
    ]);
    expect(alarms.active()[1].message).to.equal('PID 0x0102 bitrate below its minimum: 0 b/s (minimum 10.0 kb/s)');
  });

  it('raises a silence alarm past the maximum silence and clears it when datagrams arrive again', () => {
    const { alarms, log, at } = alarmsOf({ maxSilenceMs: 2000 });
    alarms.silence(1500, at(1));
    expect(alarms.active()).to.deep.equal([]);
    alarms.silence(2250, at(2));
    alarms.silence(2500, at(3));
    expect(alarms.active().map((a) => [a.kind, a.value])).to.deep.equal([['silence', 2500]]);
    alarms.silence(0, at(4));
    expect(log).to.deep.equal(['alarm: channel eo: alarm: input silent: no datagram for 2.3 s (maximum 2.0 s)', 'alarm-cleared: channel eo: alarm cleared: input silent (datagrams arrive again after 2 s)']);
  });

  it('clears every alarm when the channel stops, and one whose limit is removed, saying why', () => {
    const { alarms, log, at } = alarmsOf({ minBitrate: 1_000_000, maxSilenceMs: 1000 });
    alarms.reading(0, [], at(1));
    alarms.reading(0, [], at(2));
    alarms.silence(5000, at(2));
    expect(alarms.active().map((a) => a.kind)).to.deep.equal(['bitrate-low', 'silence']);
    alarms.setLimits({ ...NO_RELAY_ALARMS, maxSilenceMs: 1000 });
    expect(alarms.active().map((a) => a.kind)).to.deep.equal(['silence']);
    alarms.clearAll('channel stopped');
    expect(alarms.active()).to.deep.equal([]);
    expect(log.slice(2)).to.deep.equal(['alarm-cleared: channel eo: alarm cleared: input bitrate below its minimum (its limit was removed)', 'alarm-cleared: channel eo: alarm cleared: input silent (channel stopped)']);
  });
});
