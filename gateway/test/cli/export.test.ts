/**
 * `klvscope export RUN DATASET --format … --out FILE`: the raw datasets of a
 * run stored by `inspect --store`, and its flight, written to files; the
 * columnar ones read back by DuckDB equal to the NDJSON one.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '@klvscope/core';
import { arrowStreamAsParquet, duckdbRows, sqlPath } from '../../../test-support/duckdb-files.js';
import { runCli } from './run-cli.js';

describe('klvscope export', function () {
  this.timeout(180_000);
  let folder: string;
  let store: string;
  let runId: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'klvscope-export-'));
    store = join(folder, 'data');
    const file = join(folder, 'flight.ts');
    writeFileSync(file, generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, seed: 31, klv: { carriage: 'sync' } }).bytes);
    const inspected = runCli(['inspect', '--store', store, '--fail-on', 'never', file]);
    expect(inspected.status, inspected.stderr).to.equal(0);
    const shown = JSON.parse(runCli(['archive', 'show', file, '--json', '--store', store]).stdout) as { ingestRuns: Array<{ id: string }> };
    runId = shown.ingestRuns[0].id;
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('writes a dataset as NDJSON, CSV, Arrow and Parquet, the columnar files holding the NDJSON rows', async () => {
    const out = (format: string): string => join(folder, `fields.${format}`);
    for (const format of ['ndjson', 'csv', 'arrow', 'parquet']) {
      const result = runCli(['export', runId, 'klv/fields', '--format', format, '--out', out(format), '--store', store]);
      expect(result.status, `${format}: ${result.stderr}`).to.equal(0);
    }
    const ndjson = readFileSync(out('ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { seq: number; name: string; rawHex: string });
    expect(ndjson.length).to.be.greaterThan(100);
    expect(readFileSync(out('csv'), 'utf8').trim().split('\r\n')).to.have.length(ndjson.length + 1);
    const parquetRows = await duckdbRows(`SELECT seq, name, rawHex FROM read_parquet(${sqlPath(out('parquet'))}) ORDER BY seq`);
    expect(parquetRows.map((row) => [Number(row.seq), row.name, row.rawHex])).to.deep.equal(ndjson.map((row) => [row.seq, row.name, row.rawHex]));
    expect(arrowStreamAsParquet(out('arrow'), `${out('arrow')}.parquet`).rows).to.equal(ndjson.length);
    // Renamed into place: no temporary file left beside it.
    expect(readdirSync(folder).filter((name) => name.includes('.tmp-'))).to.deep.equal([]);
  });

  it('writes the flight as GeoJSON, KML and GPX', () => {
    for (const format of ['geojson', 'kml', 'gpx']) {
      const file = join(folder, `track.${format}`);
      const result = runCli(['export', runId, 'klv/track', '--format', format, '--out', file, '--store', store]);
      expect(result.status, `${format}: ${result.stderr}`).to.equal(0);
    }
    const collection = JSON.parse(readFileSync(join(folder, 'track.geojson'), 'utf8')) as { type: string; features: Array<{ properties: { kind: string } }> };
    expect(collection.type).to.equal('FeatureCollection');
    expect(collection.features.filter((f) => f.properties.kind === 'platform').length).to.be.greaterThan(10);
    const trkpts = readFileSync(join(folder, 'track.gpx'), 'utf8').match(/<trkpt /g) ?? [];
    expect(trkpts).to.have.length(collection.features.filter((f) => f.properties.kind === 'platform').length);
    expect(readFileSync(join(folder, 'track.kml'), 'utf8')).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<kml xmlns="http:\/\/www.opengis.net\/kml\/2.2">/);
  });

  it('refuses a format the dataset has not, an unknown dataset and an unknown run with exit code 2, writing nothing', () => {
    const file = join(folder, 'refused.out');
    const cases: Array<[string[], RegExp]> = [
      [[runId, 'klv/fields', '--format', 'geojson'], /--format for klv\/fields must be one of arrow, parquet, ndjson, csv/],
      [[runId, 'klv/track', '--format', 'parquet'], /--format for klv\/track must be one of geojson, kml, gpx/],
      [[runId, 'klv/nothing', '--format', 'arrow'], /no dataset 'klv\/nothing'/],
      [['no-such-run', 'klv/fields', '--format', 'arrow'], /no ingest run 'no-such-run'/],
    ];
    for (const [args, message] of cases) {
      const result = runCli(['export', ...args, '--out', file, '--store', store]);
      expect([result.status, result.stderr], args.join(' ')).to.satisfy(([status, stderr]: [number, string]) => status === 2 && message.test(stderr));
      expect(existsSync(file)).to.equal(false);
    }
  });
});
