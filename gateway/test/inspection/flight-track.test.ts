/**
 * The flight of an ingest run as GIS files (GET …/klv/track): GeoJSON checked
 * against the RFC 7946 structure, KML parsed as XML with the expected
 * placemarks, GPX with one track point per packet with a position, each
 * position equal to the packet's items in the klv/metadata-packets dataset.
 */
import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

type Position = number[];
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown } | null;
}

interface Packet {
  seq: number;
  keyName: string;
  timestampMicros: number | null;
  items: Array<{ tag: number; value: unknown; error?: string }>;
}

/** Of each ST 0601 packet: its platform position (items 14, 13, 15) and frame centre (24, 23), or null. */
function expectedPositions(packets: Packet[]): Array<{ seq: number; platform: Position | null; frameCenter: Position | null; time: number | null; corners: boolean }> {
  return packets
    .filter((packet) => packet.keyName === 'st0601-uas-datalink-ls')
    .map((packet) => {
      const value = (tag: number): number | null => {
        const v = packet.items.find((item) => item.tag === tag && item.error === undefined)?.value;
        return typeof v === 'number' ? v : null;
      };
      const lat = value(13);
      const lon = value(14);
      const alt = value(15);
      const centreLat = value(23);
      const centreLon = value(24);
      const centreAlt = value(25);
      return {
        seq: packet.seq,
        platform: lat === null || lon === null ? null : alt === null ? [lon, lat] : [lon, lat, alt],
        frameCenter: centreLat === null || centreLon === null ? null : centreAlt === null ? [centreLon, centreLat] : [centreLon, centreLat, centreAlt],
        time: packet.timestampMicros,
        // ST 0601 26-33 (offsets from the frame centre) or 82-89 (full corners), all of them.
        corners: [82, 83, 84, 85, 86, 87, 88, 89].every((tag) => value(tag) !== null) || (centreLat !== null && centreLon !== null && [26, 27, 28, 29, 30, 31, 32, 33].every((tag) => value(tag) !== null)),
      };
    });
}

/** RFC 7946 3.1.1: a position is longitude, latitude, optionally altitude; WGS 84 ranges. */
function expectPosition(position: unknown, where: string): asserts position is Position {
  expect(position, where).to.be.an('array');
  const [lon, lat] = position as number[];
  expect((position as number[]).length, where).to.be.within(2, 3);
  expect(lon, `${where} longitude`).to.be.within(-180, 180);
  expect(lat, `${where} latitude`).to.be.within(-90, 90);
}

function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return sum;
}

const isoOfMicros = (micros: number): string => new Date(Math.floor(micros / 1000)).toISOString().slice(0, -1) + String(micros % 1000).padStart(3, '0') + 'Z';

describe('inspection service: the flight as GeoJSON, KML and GPX', function () {
  this.timeout(120_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  async function runOf(filePath: string): Promise<{ runId: string; packets: Packet[] }> {
    const inspected = await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } });
    expect(inspected.status, inspected.text).to.equal(200);
    const runId = (inspected.json as { latestIngestRunId: string }).latestIngestRunId;
    const packets = (await server.call(`/automation/ingest-runs/${runId}/klv/metadata-packets?format=ndjson`)).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Packet);
    return { runId, packets };
  }

  async function expectTracks(runId: string, packets: Packet[]): Promise<number> {
    const expected = expectedPositions(packets);
    const withPlatform = expected.filter((p) => p.platform !== null);
    expect(withPlatform.length, 'packets with a platform position').to.be.greaterThan(1);
    const base = `/automation/ingest-runs/${runId}/klv/track`;

    // GeoJSON (RFC 7946)
    const geojson = await server.call(base);
    expect(geojson.status, geojson.text).to.equal(200);
    expect(geojson.headers.get('content-type')).to.equal('application/geo+json; charset=utf-8');
    const collection = geojson.json as { type: string; features: Feature[] };
    expect(collection.type).to.equal('FeatureCollection');
    const byKind = (kind: string): Feature[] => collection.features.filter((f) => f.properties.kind === kind);
    for (const feature of collection.features) expect(feature.type).to.equal('Feature');
    const [platformTrack] = byKind('platform-track');
    expect(platformTrack.geometry?.type).to.equal('LineString');
    expect(platformTrack.geometry?.coordinates).to.deep.equal(withPlatform.map((p) => p.platform));
    const [centreTrack] = byKind('frame-centre-track');
    expect(centreTrack.geometry?.coordinates).to.deep.equal(expected.filter((p) => p.frameCenter !== null).map((p) => p.frameCenter));
    const points = byKind('platform');
    expect(points.map((f) => [f.properties.seq, f.geometry?.coordinates])).to.deep.equal(withPlatform.map((p) => [p.seq, p.platform]));
    for (const [i, point] of points.entries()) {
      expectPosition(point.geometry?.coordinates, `platform ${i}`);
      const time = withPlatform[i].time;
      expect(point.properties.time).to.equal(time === null ? null : isoOfMicros(time));
      expect(point.properties).to.have.property('platformHeadingDeg');
    }
    const footprints = byKind('footprint');
    expect(footprints.map((f) => f.properties.seq), 'footprints').to.deep.equal(expected.filter((p) => p.corners).map((p) => p.seq));
    for (const footprint of footprints) {
      expect(footprint.geometry?.type).to.equal('Polygon');
      const rings = footprint.geometry?.coordinates as Position[][];
      expect(rings).to.have.length(1);
      const [ring] = rings;
      // 3.1.6: a closed LinearRing of four or more positions, the exterior counterclockwise.
      expect(ring.length).to.equal(5);
      expect(ring[ring.length - 1]).to.deep.equal(ring[0]);
      ring.forEach((position, k) => expectPosition(position, `footprint ${String(footprint.properties.seq)} corner ${k}`));
      expect(signedArea(ring), `footprint ${String(footprint.properties.seq)} orientation`).to.be.at.least(0);
    }

    // KML
    const kml = await server.call(`${base}?format=kml`);
    expect(kml.headers.get('content-type')).to.equal('application/vnd.google-earth.kml+xml; charset=utf-8');
    expect(XMLValidator.validate(kml.text)).to.equal(true);
    const document = (new XMLParser({ ignoreAttributes: false, isArray: (name) => ['Placemark', 'Folder', 'Data'].includes(name) }).parse(kml.text) as { kml: { '@_xmlns': string; Document: { Placemark: Array<{ name: string; LineString: { coordinates: string } }>; Folder: Array<{ name: string; Placemark: Array<{ name: string; TimeStamp?: { when: string }; Point?: { coordinates: string }; Polygon?: unknown }> }> } } }).kml;
    expect(document['@_xmlns']).to.equal('http://www.opengis.net/kml/2.2');
    expect(document.Document.Placemark.map((p) => p.name)).to.deep.equal(['Platform track', 'Frame centre track']);
    expect(document.Document.Placemark[0].LineString.coordinates.split(' ').map((c) => c.split(',').map(Number))).to.deep.equal(withPlatform.map((p) => p.platform));
    const [positions, footprintFolder] = document.Document.Folder;
    expect([positions.name, footprintFolder.name]).to.deep.equal(['Platform positions', 'Sensor footprints']);
    expect(positions.Placemark.map((p) => p.Point?.coordinates.split(',').map(Number))).to.deep.equal(withPlatform.map((p) => p.platform));
    expect(footprintFolder.Placemark ?? []).to.have.length(footprints.length);
    if (withPlatform[0].time !== null) expect(positions.Placemark[0].TimeStamp?.when).to.equal(isoOfMicros(withPlatform[0].time));

    // GPX: one trkpt per packet with a position
    const gpx = await server.call(`${base}?format=gpx`);
    expect(gpx.headers.get('content-type')).to.equal('application/gpx+xml; charset=utf-8');
    expect(XMLValidator.validate(gpx.text)).to.equal(true);
    const track = (new XMLParser({ ignoreAttributes: false, parseAttributeValue: true, isArray: (name) => name === 'trkpt' }).parse(gpx.text) as { gpx: { '@_version': number | string; trk: { trkseg: { trkpt: Array<{ '@_lat': number; '@_lon': number; ele?: number; time?: string }> } } } }).gpx;
    expect(String(track['@_version'])).to.equal('1.1');
    const trkpts = track.trk.trkseg.trkpt;
    expect(trkpts).to.have.length(withPlatform.length);
    expect(trkpts.map((p) => [p['@_lon'], p['@_lat'], p.ele])).to.deep.equal(withPlatform.map((p) => p.platform));
    return footprints.length;
  }

  it('draws the flight of a real recording from its ST 0601 packets, 277 of them', async function () {
    const filePath = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { runId, packets } = await runOf(filePath);
    expect(packets).to.have.length(277);
    // MANIFEST.md: every packet carries items 1-33.
    expect(await expectTracks(runId, packets)).to.equal(277);
  });

  it('draws the flight of a generated stream', async () => {
    const { path } = writeGenerated(server.root, 'flight.ts', { durationSeconds: 3, bitrate: 2_000_000, seed: 21, klv: { carriage: 'async', pts: true } });
    const { runId, packets } = await runOf(path);
    await expectTracks(runId, packets);
  });

  it('answers a bad format, an unknown run and a stray parameter with the JSON error body', async () => {
    const { path } = writeGenerated(server.root, 'flight-errors.ts', { durationSeconds: 1, bitrate: 2_000_000, seed: 22, klv: { carriage: 'sync' } });
    const { runId } = await runOf(path);
    for (const [url, status, code] of [
      [`/automation/ingest-runs/${runId}/klv/track?format=shp`, 400, 'ERR_INVALID_FIELD'],
      [`/automation/ingest-runs/${runId}/klv/track?limit=3`, 400, 'ERR_INVALID_FIELD'],
      ['/automation/ingest-runs/no-such-run/klv/track?format=kml', 404, 'ERR_INGEST_RUN_NOT_FOUND'],
    ] as const) {
      const answer = await server.call(url);
      expect([answer.status, (answer.json as { error: { code: string } }).error.code], url).to.deep.equal([status, code]);
    }
  });
});
