/**
 * The check page's lookup of the metadata packet for a frame, or for a
 * moment when there is no picture, over a whole recording's packets: real
 * recordings (kwiver's MPEG-2 and HEVC samples) carry KLV before their first
 * PCR, so their first packets have no stream time.
 */
import { expect } from 'chai';
import { FlightMetadata, type MetadataPacketRow } from '../src/dashboard/playback/flight-metadata.js';
import { StreamClock } from '../src/dashboard/playback/stream-clock.js';

const FIRST_PCR_27MHZ = 90_000 * 300;
const FIRST_VIDEO_PTS = 90_000 + 3_000;
const clock = new StreamClock(FIRST_PCR_27MHZ, FIRST_VIDEO_PTS);

function row(seq: number, t: number | null, pts90kHz: number | null, latitude: number): MetadataPacketRow {
  return { seq, t, pid: 0x102, standard: 'MISB ST 0601', checksum: { valid: true }, pts90kHz, items: [{ tag: 13, value: latitude } as MetadataPacketRow['items'][number]] };
}

const latitudeOf = (found: { message: { values: { sensorLatitudeDeg?: number | null } } } | null) => found?.message.values.sensorLatitudeDeg ?? null;

describe('the metadata packet of a frame over a whole recording', () => {
  it('picks a packet without PTS that came before the first PCR for the frames after it', () => {
    const flight = new FlightMetadata([row(0, null, null, 10), row(1, null, null, 11), row(2, 0.5, null, 12)], new Map([[0x102, 'async']]), clock);
    expect(latitudeOf(flight.forFrame(clock.ptsAt(0.1), 0.1))).to.equal(11);
    expect(latitudeOf(flight.forFrame(clock.ptsAt(0.6), 0.6))).to.equal(12);
  });

  it('follows the time cursor without a picture through packets that have no stream time', () => {
    const flight = new FlightMetadata([row(0, null, null, 10), row(1, 0.5, null, 12), row(2, 1.0, null, 13)], new Map([[0x102, 'async']]), clock);
    expect(flight.atStreamTime(0.2)?.values.sensorLatitudeDeg).to.equal(10);
    expect(flight.atStreamTime(0.7)?.values.sensorLatitudeDeg).to.equal(12);
    expect(flight.atStreamTime(5)?.values.sensorLatitudeDeg).to.equal(13);
  });

  it('prefers a packet with PTS on the frame to an earlier one without stream time', () => {
    const flight = new FlightMetadata([row(0, null, null, 10), row(1, 0.2, FIRST_VIDEO_PTS, 20)], new Map([[0x102, 'async']]), clock);
    expect(latitudeOf(flight.forFrame(clock.unwrap(FIRST_VIDEO_PTS), clock.streamTimeAt(FIRST_VIDEO_PTS)))).to.equal(20);
  });
});
