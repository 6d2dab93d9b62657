import { expect } from 'chai';
import {
  MP2T_PAYLOAD_TYPE,
  RTP_HEADER_SIZE,
  isRtpTransportStream,
  rtpPayloadEnd,
  rtpPayloadOffset,
  rtpSequenceNumber,
  rtpTimestamp,
  unwrapRtp,
  wrapRtp,
} from '../src/rtp.js';
import { RtpSequence } from '../src/rtp-sequence.js';

/** `count` 188-byte packets, each starting with the sync byte and filled with its index. */
function tsPackets(count: number): Uint8Array {
  const bytes = new Uint8Array(count * 188);
  for (let i = 0; i < count; i++) {
    bytes.fill(i + 1, i * 188, (i + 1) * 188);
    bytes[i * 188] = 0x47;
  }
  return bytes;
}

/** An RTP packet with CSRCs, a header extension and padding around `payload`, all by hand (RFC 3550 5.1, 5.3.1). */
function rtpWithEverything(payload: Uint8Array): Uint8Array {
  const csrcs = 2;
  const extensionWords = 3;
  const padding = 4;
  const header = RTP_HEADER_SIZE + csrcs * 4 + 4 + extensionWords * 4;
  const packet = new Uint8Array(header + payload.length + padding);
  packet[0] = 0x80 | 0x20 | 0x10 | csrcs; // V=2, P, X, CC=2
  packet[1] = 0x80 | MP2T_PAYLOAD_TYPE; // marker set
  packet[2] = 0x12;
  packet[3] = 0x34;
  packet[RTP_HEADER_SIZE + csrcs * 4 + 3] = extensionWords;
  packet.set(payload, header);
  packet[packet.length - 1] = padding;
  return packet;
}

describe('RTP framing', () => {
  it('wraps a payload behind a 12-byte header with the sequence number, timestamp and SSRC', () => {
    const payload = tsPackets(7);
    const packet = wrapRtp(payload, { sequenceNumber: 65_537, timestamp: 2 ** 32 + 90_000, ssrc: 0xdeadbeef });
    expect(packet.length).to.equal(RTP_HEADER_SIZE + 7 * 188);
    expect([...packet.subarray(0, RTP_HEADER_SIZE)]).to.deep.equal([0x80, 33, 0, 1, 0, 1, 0x5f, 0x90, 0xde, 0xad, 0xbe, 0xef]);
    expect(rtpSequenceNumber(packet)).to.equal(1);
    expect(rtpTimestamp(packet)).to.equal(90_000);
    expect(unwrapRtp(packet)).to.deep.equal(payload);
  });

  it('recognises RTP-wrapped TS, and not plain TS or RTP carrying something else', () => {
    const payload = tsPackets(7);
    expect(isRtpTransportStream(wrapRtp(payload, { sequenceNumber: 1, timestamp: 0, ssrc: 1 }))).to.be.true;
    expect(isRtpTransportStream(wrapRtp(payload, { sequenceNumber: 1, timestamp: 0, ssrc: 1, payloadType: 96 })), 'dynamic type').to.be.true;
    expect(isRtpTransportStream(payload), 'plain TS: version bits 01').to.be.false;
    expect(isRtpTransportStream(wrapRtp(payload, { sequenceNumber: 1, timestamp: 0, ssrc: 1, payloadType: 14 })), 'MPA audio').to.be.false;
    expect(isRtpTransportStream(wrapRtp(payload.subarray(0, 200), { sequenceNumber: 1, timestamp: 0, ssrc: 1 })), 'not whole packets').to.be.false;
    expect(isRtpTransportStream(wrapRtp(new Uint8Array(188), { sequenceNumber: 1, timestamp: 0, ssrc: 1 })), 'no sync byte').to.be.false;
    expect(isRtpTransportStream(new Uint8Array([0x80, 33, 0, 1])), 'shorter than a header').to.be.false;
  });

  it('finds the payload after CSRCs and the header extension, and before the padding', () => {
    const payload = tsPackets(2);
    const packet = rtpWithEverything(payload);
    expect(rtpPayloadOffset(packet)).to.equal(RTP_HEADER_SIZE + 8 + 4 + 12);
    expect(rtpPayloadEnd(packet)).to.equal(packet.length - 4);
    expect(isRtpTransportStream(packet)).to.be.true;
    expect(unwrapRtp(packet)).to.deep.equal(payload);
  });

  it('refuses a header whose CSRCs, extension or padding run past the datagram', () => {
    const packet = rtpWithEverything(tsPackets(1));
    expect(rtpPayloadOffset(packet.subarray(0, 20)), 'cut inside the CSRCs').to.equal(-1);
    const badPadding = packet.slice();
    badPadding[badPadding.length - 1] = 250;
    expect(rtpPayloadOffset(badPadding)).to.equal(-1);
    expect(unwrapRtp(badPadding)).to.equal(null);
  });
});

describe('RTP sequence numbers', () => {
  function accepted(numbers: number[]): { lost: number[]; sequence: RtpSequence } {
    const sequence = new RtpSequence();
    return { lost: numbers.map((n) => sequence.accept(n)), sequence };
  }

  it('counts nothing lost for consecutive numbers across the wrap from 65535 to 0', () => {
    const { lost, sequence } = accepted([65_533, 65_534, 65_535, 0, 1, 2]);
    expect(lost).to.deep.equal([0, 0, 0, 0, 0, 0]);
    expect(sequence.lost).to.equal(0);
  });

  it('reports a gap as the number of packets missing, across the wrap', () => {
    const { lost, sequence } = accepted([65_533, 65_534, 2, 3, 10]);
    expect(lost).to.deep.equal([0, 0, 3, 0, 6]);
    expect(sequence.lost).to.equal(9);
  });

  it('takes reordered and duplicated packets as late, not as a gap or a loss', () => {
    const { lost, sequence } = accepted([100, 101, 103, 102, 104, 104, 105]);
    expect(lost).to.deep.equal([0, 0, 1, 0, 0, 0, 0]);
    expect(sequence).to.include({ lost: 1, late: 2, restarts: 0 });
  });

  it('follows a sender that restarts its numbering once the next packet confirms it', () => {
    const { lost, sequence } = accepted([30_000, 30_001, 5, 6, 7]);
    expect(lost).to.deep.equal([0, 0, 0, 0, 0]);
    expect(sequence).to.include({ lost: 0, late: 0, restarts: 1 });
  });

  it('does not take one stray old packet for a restart', () => {
    const { lost, sequence } = accepted([30_000, 30_001, 5, 30_002, 30_003]);
    expect(lost).to.deep.equal([0, 0, 0, 0, 0]);
    expect(sequence).to.include({ lost: 0, late: 1, restarts: 0 });
  });
});
