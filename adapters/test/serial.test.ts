import { expect } from 'chai';
import { epochNow } from '../src/epoch-clock.js';
import { KlvStreamDemuxer, type Observation, TS_PACKET_SIZE as TS_PACKET_BYTES } from '@klvscope/core';
import { SerialPort } from 'serialport';
import { AdapterError } from '../src/adapter-error.js';
import type { LiveChunk, LiveSource, LiveSourceEvent } from '../src/live-source.js';
import { openSerialSource } from '../src/serial.js';
import { openPtyPair, socatAvailable, type PtyPair } from '../../test-support/pty-pair.js';
import { concat, expectedNoise, noisyKlvStream, st0601Packet } from './serial-test-streams.js';

const now = (): number => epochNow();

async function openWriter(path: string): Promise<SerialPort> {
  const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  return port;
}

/** Writes and waits until the bytes are handed to the tty. */
async function send(port: SerialPort, bytes: Uint8Array): Promise<void> {
  port.write(Buffer.from(bytes));
  await new Promise<void>((resolve, reject) => port.drain((error) => (error ? reject(error) : resolve())));
}

async function closeWriter(port: SerialPort): Promise<void> {
  if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
}

/** Reads chunks until `bytes` packet bytes have come (then stops, which closes the source), failing after `ms`. */
async function readUntil(source: LiveSource, bytes: number, ms = 4000): Promise<LiveChunk[]> {
  const chunks: LiveChunk[] = [];
  const timer = setTimeout(() => void source.close(), ms);
  let got = 0;
  try {
    for await (const chunk of source) {
      chunks.push(chunk);
      got += chunk.bytes.length;
      if (got >= bytes) break;
    }
  } finally {
    clearTimeout(timer);
  }
  if (got < bytes) throw new Error(`only ${got} of ${bytes} packet bytes arrived within ${ms} ms`);
  return chunks;
}

/** Noise events added up by delivered-stream offset (a run may span serial reads). */
function noiseByOffset(events: readonly LiveSourceEvent[]): Array<[number, number]> {
  const sums = new Map<number, number>();
  for (const e of events) if (e.kind === 'noise') sums.set(e.offset, (sums.get(e.offset) ?? 0) + e.count);
  return [...sums];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('serial adapter', () => {
  it('refuses to open a device that does not exist, naming the path and the OS reason', async () => {
    const error = await rejection(openSerialSource('serial:///dev/klvscope-no-such-tty?baud=9600'));
    expect(error).to.be.instanceOf(AdapterError);
    expect((error as AdapterError).toJSON()).to.deep.equal({
      code: 'ERR_SERIAL_OPEN_FAILED',
      message: 'cannot open serial device /dev/klvscope-no-such-tty: No such file or directory',
      details: { path: '/dev/klvscope-no-such-tty', reason: 'No such file or directory' },
    });
  });

  it('refuses a bad URL before touching any device', async () => {
    const error = await rejection(openSerialSource('serial:///dev/ttyUSB0?format=mpeg'));
    expect(error).to.be.instanceOf(AdapterError).with.property('code', 'ERR_SOURCE_URL_INVALID');
  });

  describe('over a real pseudo-terminal pair (socat)', function () {
    let pty: PtyPair;
    let writer: SerialPort | null = null;

    before(function () {
      if (!socatAvailable()) {
        console.log('      skipped: socat is not installed (apt-get install socat), so no pty pair can be made');
        this.skip();
      }
    });

    beforeEach(async () => {
      pty = await openPtyPair();
    });

    afterEach(async () => {
      if (writer) await closeWriter(writer);
      writer = null;
      await pty.close();
    });

    it('recovers every KLV packet written with noise between them, byte-exact and in order, and reports exactly the noise', async () => {
      const stream = noisyKlvStream(150, 2024, { maxNoise: 60 });
      const packetBytes = stream.packets.reduce((n, p) => n + p.length, 0);
      const source = await openSerialSource(`serial://${pty.a}?baud=115200&format=klv`);
      const events: LiveSourceEvent[] = [];
      source.onEvent = (event) => events.push(event);
      expect([source.format, source.url]).to.deep.equal(['klv', `serial://${pty.a}?baud=115200&format=klv`]);
      writer = await openWriter(pty.b);
      const startedAt = now();
      const reading = readUntil(source, packetBytes);
      await send(writer, stream.bytes);
      const chunks = await reading;
      const endedAt = now();

      expect(concat(chunks.map((c) => c.bytes))).to.deep.equal(concat(stream.packets));
      expect(noiseByOffset(events)).to.deep.equal(expectedNoise(stream));
      expect(events.every((e) => e.kind === 'noise' && e.at >= startedAt && e.at <= endedAt)).to.equal(true);
      const receivedAt = chunks.map((c) => c.receivedAt);
      expect(receivedAt[0]).to.be.within(startedAt, endedAt);
      expect(receivedAt).to.deep.equal([...receivedAt].sort((x, y) => x - y));
      const noiseBytes = stream.noiseBefore.reduce((a, b) => a + b, 0);
      expect(source.stats()).to.deep.include({ bytes: packetBytes, noiseBytes, applicationLoss: 0, rtp: false, lastChunkAt: receivedAt.at(-1) });
      expect(source.stats().chunks).to.be.at.least(chunks.length);

      // Core's raw KLV demuxer reads the delivered bytes as they are: one packet per ST 0601 packet written.
      const observations: Observation[] = [];
      const demuxer = new KlvStreamDemuxer((o) => observations.push(o));
      for (const chunk of chunks) demuxer.push(chunk.bytes);
      demuxer.end();
      const klv = observations.filter((o) => o.kind === 'klv-packet');
      const metadata = observations.filter((o) => o.kind === 'metadata-packet');
      expect(klv.map((o) => o.raw)).to.deep.equal(stream.packets);
      expect(klv.map((o) => o.keyName)).to.deep.equal(stream.packets.map(() => 'st0601-uas-datalink-ls'));
      expect(metadata.map((o) => [o.timestampMicros, o.version, o.checksum?.valid])).to.deep.equal(stream.timestamps.map((t) => [t, 19, true]));
      expect(observations.filter((o) => o.kind === 'klv-error')).to.deep.equal([]);
    });

    it('delivers whole TS packets in ts format, the last one when the source closes', async () => {
      const packets = Array.from({ length: 10 }, (_, i) => {
        const packet = new Uint8Array(TS_PACKET_BYTES).fill(0x20 + i);
        packet.set([0x47, 0x01, 0x00, 0x10 | i]);
        return packet;
      });
      const noise = Uint8Array.from([0x47, 0x00, 0x47, 0x99, 0x13]);
      const source = await openSerialSource(`serial:${pty.a}?format=ts`);
      const events: LiveSourceEvent[] = [];
      source.onEvent = (event) => events.push(event);
      writer = await openWriter(pty.b);
      const chunks: LiveChunk[] = [];
      const reading = (async () => {
        let got = 0;
        for await (const chunk of source) {
          chunks.push(chunk);
          got += chunk.bytes.length;
          // The last packet waits for a sync byte after it that never comes: closing delivers it.
          if (got === 9 * TS_PACKET_BYTES) setTimeout(() => void source.close(), 100);
        }
      })();
      await send(writer, concat([noise, ...packets.slice(0, 5), noise, ...packets.slice(5)]));
      await reading;
      expect(concat(chunks.map((c) => c.bytes))).to.deep.equal(concat(packets));
      expect(noiseByOffset(events)).to.deep.equal([
        [0, 5],
        [5 * TS_PACKET_BYTES, 5],
      ]);
    });

    it('drops whole reads when the consumer falls behind, and says so in events and counters', async () => {
      // Packets of one size (tag 3 'M10' to 'M44'), so once the queue is full none fits again.
      const packets = Array.from({ length: 24 }, (_, i) => st0601Packet(10 + 3 * Math.floor(i / 2) + (i % 2)).bytes);
      expect(new Set(packets.map((p) => p.length)).size).to.equal(1);
      const source = await openSerialSource(`serial://${pty.a}`, { maxQueuedBytes: 1000 });
      const events: LiveSourceEvent[] = [];
      source.onEvent = (event) => events.push(event);
      writer = await openWriter(pty.b);
      // One packet per write, so the reads come one by one; nobody reads the source meanwhile.
      for (const packet of packets) {
        await send(writer, packet);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const total = packets.reduce((n, p) => n + p.length, 0);
      const deadline = Date.now() + 3000;
      while (source.stats().bytes + lostBytes(events) < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await source.close();

      const losses = events.filter((e) => e.kind === 'application-loss');
      const stats = source.stats();
      expect(losses.length).to.be.at.least(1);
      expect(stats.applicationLoss).to.equal(losses.length);
      expect(stats.bytes).to.be.at.most(1000);
      expect(stats.bytes + lostBytes(events)).to.equal(total);
      // What was kept is still delivered, and it is whole packets.
      const kept: Uint8Array[] = [];
      for await (const chunk of source) kept.push(chunk.bytes);
      const delivered = concat(kept);
      expect(delivered.length).to.equal(stats.bytes);
      expect(delivered).to.deep.equal(concat(packets.slice(0, delivered.length / packets[0].length)));
      // Every loss happened after the queue filled: at the end of what was delivered.
      expect(losses.map((e) => e.offset)).to.deep.equal(losses.map(() => delivered.length));
    });

    it('ends the source with the error of an event listener that throws, instead of crashing the process', async () => {
      const source = await openSerialSource(`serial://${pty.a}`);
      source.onEvent = () => {
        throw new Error('listener broke');
      };
      writer = await openWriter(pty.b);
      const reading = (async () => {
        for await (const _chunk of source) {
          // the packet after the noise may come first
        }
      })();
      await send(writer, concat([Uint8Array.of(1, 2, 3), st0601Packet(1).bytes]));
      const error = await rejection(reading);
      expect(error).to.be.instanceOf(Error).with.property('message', 'listener broke');
    });

    it('ends the iteration when closed, and closing again does nothing more', async () => {
      const source = await openSerialSource(`serial://${pty.a}`);
      const chunks: LiveChunk[] = [];
      const reading = (async () => {
        for await (const chunk of source) chunks.push(chunk);
      })();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all([source.close(), source.close()]);
      await reading;
      await source.close();
      expect(chunks).to.deep.equal([]);
      // The device is free again: it can be opened once more.
      const again = await openSerialSource(`serial://${pty.a}`);
      await again.close();
    });

    it('has one consumer: a second iteration is refused', async () => {
      const source = await openSerialSource(`serial://${pty.a}`);
      const first = source[Symbol.asyncIterator]();
      const pending = first.next();
      const error = await rejection(source[Symbol.asyncIterator]().next());
      expect(error).to.be.instanceOf(Error).with.property('message').that.matches(/is already being read: a live source has one consumer$/);
      await source.close();
      expect(await pending).to.deep.equal({ value: undefined, done: true });
    });

    it('rejects the iteration with the abort reason when the signal fires, and releases the device', async () => {
      const controller = new AbortController();
      const source = await openSerialSource(`serial://${pty.a}`, { signal: controller.signal });
      const reading = (async () => {
        for await (const _chunk of source) {
          // nothing arrives
        }
      })();
      setTimeout(() => controller.abort(), 20);
      const error = await rejection(reading);
      expect(error).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
      const again = await openSerialSource(`serial://${pty.a}`);
      await again.close();
      const aborted = await rejection(openSerialSource(`serial://${pty.a}`, { signal: AbortSignal.abort() }));
      expect(aborted).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
    });

    it('ends the iteration with ERR_SERIAL_READ_FAILED when the device goes away, after the packets received', async () => {
      const packets = [1, 2, 3].map((i) => st0601Packet(i).bytes);
      const total = packets.reduce((n, p) => n + p.length, 0);
      const source = await openSerialSource(`serial://${pty.a}`);
      writer = await openWriter(pty.b);
      await send(writer, concat(packets));
      const deadline = Date.now() + 3000;
      while (source.stats().bytes < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await closeWriter(writer);
      writer = null;
      await pty.close();
      const chunks: LiveChunk[] = [];
      const error = await rejection(
        (async () => {
          for await (const chunk of source) chunks.push(chunk);
        })(),
      );
      expect(error).to.be.instanceOf(AdapterError).with.property('code', 'ERR_SERIAL_READ_FAILED');
      expect((error as AdapterError).details).to.deep.equal({ path: pty.a });
      expect(concat(chunks.map((c) => c.bytes))).to.deep.equal(concat(packets));
    });
  });
});

/** Packet bytes dropped, as the application-loss messages give them. */
function lostBytes(events: readonly LiveSourceEvent[]): number {
  let bytes = 0;
  for (const e of events) if (e.kind === 'application-loss') bytes += Number(/dropped a serial read of (\d+) packet bytes/.exec(e.message)?.[1] ?? NaN);
  return bytes;
}
