/**
 * Raw datasets as Arrow IPC streams and Parquet files (docs/rest.md), from a
 * real service on a real socket over a real data folder, read back by
 * readers that share no code with the writers (test-support/duckdb-files.ts):
 * each file's row count and a sample of its values equal the NDJSON export's.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFaultSpec } from '@klvscope/core';
import { RAW_DATASETS, type RawDatasetDefinition } from '@klvscope/core/store';
import { arrowStreamAsParquet, duckdbRows, sqlPath } from '../../../test-support/duckdb-files.js';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

type Row = Record<string, unknown>;

/** Rows of the sample: the first, the last and about 25 spread between. */
function sampleIndexes(count: number): number[] {
  const step = Math.max(1, Math.floor(count / 25));
  const indexes = new Set<number>([0, count - 1]);
  for (let i = 0; i < count; i += step) indexes.add(i);
  return [...indexes].filter((i) => i >= 0 && i < count).sort((a, b) => a - b);
}

/** What DuckDB gives for a field, as NDJSON has it: BIGINT text as a number, raw bytes as lower-case hex, a time stamp as µs. */
function selectList(dataset: RawDatasetDefinition): string {
  return dataset.fields
    .map((field) => {
      if (field === 'rawHex' && dataset.kind === 'klv-packet') return 'lower(hex("raw")) AS "rawHex"';
      if (field === 'timestampMicros') return 'epoch_us("timestampMicros") AS "timestampMicros"';
      if (field === 'items') return '"items"';
      return `"${field}"`;
    })
    .join(', ');
}

function asNdjsonValue(field: string, value: unknown, jsonFields: ReadonlySet<string>): unknown {
  if (value === null) return null;
  if (jsonFields.has(field)) return JSON.parse(value as string);
  // DuckDB gives BIGINT as text (it may exceed a double); ours never do.
  if (typeof value === 'string' && /^-?\d+$/.test(value) && field !== 'rawHex' && field !== 'keyHex' && field !== 'name') return Number(value);
  return value;
}

const JSON_FIELDS = new Set(['details', 'checksum', 'value']);

/** Compares the sample of `file`'s rows (a Parquet file) with the NDJSON rows. */
async function expectSampleEqual(dataset: RawDatasetDefinition, file: string, ndjson: Row[]): Promise<number> {
  const indexes = sampleIndexes(ndjson.length);
  const seqs = indexes.map((i) => ndjson[i].seq as number);
  const read = await duckdbRows(`SELECT ${selectList(dataset)} FROM read_parquet(${sqlPath(file)}) WHERE seq IN (${seqs.join(',')}) ORDER BY seq`);
  expect(read.length, dataset.name).to.equal(seqs.length);
  read.forEach((row, k) => {
    const expected = ndjson[indexes[k]];
    for (const field of dataset.fields) {
      if (field === 'items') continue;
      expect(asNdjsonValue(field, row[field], JSON_FIELDS), `${dataset.name} seq ${String(expected.seq)} ${field}`).to.deep.equal(expected[field]);
    }
  });
  return seqs.length;
}

/** The ST 0601 item columns of metadata packets equal the items of the NDJSON rows. */
async function expectItemColumnsEqual(file: string, ndjson: Row[]): Promise<void> {
  const st0601 = ndjson.filter((row) => row.keyName === 'st0601-uas-datalink-ls');
  expect(st0601.length).to.be.greaterThan(0);
  const seqs = sampleIndexes(st0601.length).map((i) => st0601[i].seq as number);
  const read = await duckdbRows(
    `SELECT seq, sensorLatitude, sensorLongitude, platformHeadingAngle, missionId, epoch_us(precisionTimeStamp) AS precisionTimeStamp FROM read_parquet(${sqlPath(file)}) WHERE seq IN (${seqs.join(',')}) ORDER BY seq`,
  );
  expect(read.map((row) => Number(row.seq))).to.deep.equal(seqs);
  for (const row of read) {
    const items = (st0601.find((packet) => packet.seq === Number(row.seq)) as Row).items as Array<{ tag: number; value: unknown }>;
    const value = (tag: number): unknown => items.find((item) => item.tag === tag)?.value ?? null;
    const times = value(2);
    expect([row.sensorLatitude, row.sensorLongitude, row.platformHeadingAngle, row.missionId, row.precisionTimeStamp === null ? null : Number(row.precisionTimeStamp)], `seq ${String(row.seq)}`).to.deep.equal([
      value(13),
      value(14),
      value(5),
      value(3),
      times,
    ]);
  }
}

async function download(server: FileTestServer, path: string, file: string): Promise<Response> {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': server.key } });
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return response;
}

describe('inspection service: raw datasets as Arrow and Parquet', function () {
  this.timeout(300_000);
  let server: FileTestServer;
  let folder: string;
  fileTestServerForSuite((started) => (server = started));
  before(() => (folder = mkdtempSync(join(tmpdir(), 'klvscope-columnar-'))));
  after(() => rmSync(folder, { recursive: true, force: true }));

  async function inspect(filePath: string): Promise<{ runId: string; counts: Record<string, number> }> {
    const inspected = await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } });
    expect(inspected.status, inspected.text).to.equal(200);
    const runId = (inspected.json as { latestIngestRunId: string }).latestIngestRunId;
    const run = (await server.call(`/automation/ingest-runs/${runId}`)).json as { counts: Record<string, number> };
    return { runId, counts: run.counts };
  }

  async function expectEveryDatasetReadsBack(runId: string, counts: Record<string, number>, label: string): Promise<void> {
    for (const dataset of RAW_DATASETS) {
      const base = `/automation/ingest-runs/${runId}/${dataset.name}`;
      const ndjsonText = (await server.call(`${base}?format=ndjson`)).text;
      const ndjson = ndjsonText.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Row);
      expect(ndjson.length, `${label} ${dataset.name}`).to.equal(counts[dataset.kind]);
      const name = `${label}-${dataset.name.replace('/', '-')}`;

      const parquet = join(folder, `${name}.parquet`);
      const parquetAnswer = await download(server, `${base}?format=parquet`, parquet);
      expect(parquetAnswer.status, dataset.name).to.equal(200);
      expect(parquetAnswer.headers.get('content-type')).to.equal('application/vnd.apache.parquet');
      expect(parquetAnswer.headers.get('x-total-count')).to.equal(String(ndjson.length));
      expect(parquetAnswer.headers.get('content-disposition')).to.equal(`attachment; filename="${runId}-${dataset.name.replace('/', '-')}.parquet"`);
      const [{ rows: parquetRows }] = await duckdbRows(`SELECT count(*)::INTEGER AS rows FROM read_parquet(${sqlPath(parquet)})`);
      expect(parquetRows, `${dataset.name} parquet rows`).to.equal(ndjson.length);

      const arrow = join(folder, `${name}.arrow`);
      const arrowAnswer = await download(server, `${base}?format=arrow`, arrow);
      expect(arrowAnswer.status, dataset.name).to.equal(200);
      expect(arrowAnswer.headers.get('content-type')).to.equal('application/vnd.apache.arrow.stream');
      const rewritten = join(folder, `${name}.arrow.parquet`);
      const read = arrowStreamAsParquet(arrow, rewritten);
      expect(read.rows, `${dataset.name} arrow rows`).to.equal(ndjson.length);
      if (ndjson.length === 0) continue;
      await expectSampleEqual(dataset, parquet, ndjson);
      await expectSampleEqual(dataset, rewritten, ndjson);
      if (dataset.kind === 'metadata-packet') {
        await expectItemColumnsEqual(parquet, ndjson);
        await expectItemColumnsEqual(rewritten, ndjson);
      }
    }
  }

  it('exports every dataset of a generated stream with every kind of observation, and DuckDB and arrow-rs read back the NDJSON rows', async () => {
    const faults = ['drop-packet@0.5', 'duplicate-packet@0.8', 'tei@1.1', 'sync-byte@1.4', 'psi-crc@1.7', 'pcr-jump-forward@2.2', 'pts-gap@2.6', 'klv-checksum@1.0', 'klv-unknown-tag@2.0'];
    const { path } = writeGenerated(server.root, 'columnar.ts', { durationSeconds: 4, bitrate: 3_000_000, seed: 7, audio: true, klv: { carriage: 'sync' }, faults: faults.map((spec) => parseFaultSpec(spec)) });
    const { runId, counts } = await inspect(path);
    for (const kind of ['pcr', 'pes', 'ts-error', 'klv-packet', 'metadata-packet', 'klv-field', 'psi-section', 'pid-stats']) expect(counts[kind], kind).to.be.greaterThan(0);
    await expectEveryDatasetReadsBack(runId, counts, 'generated');
  });

  it('exports every dataset of a real recording, read back equal to its NDJSON', async function () {
    const filePath = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { runId, counts } = await inspect(filePath);
    await expectEveryDatasetReadsBack(runId, counts, 'real');
  });

  it('types the columns: integers as BIGINT, stream time as DOUBLE, the packet time stamp as a UTC timestamp, the triplet as bytes', async () => {
    const { path } = writeGenerated(server.root, 'typed.ts', { durationSeconds: 2, bitrate: 2_000_000, seed: 12, klv: { carriage: 'async', pts: true } });
    const { runId } = await inspect(path);
    const types = async (dataset: string): Promise<Record<string, string>> => {
      const file = join(folder, `typed-${dataset.replace('/', '-')}.parquet`);
      await download(server, `/automation/ingest-runs/${runId}/${dataset}?format=parquet`, file);
      const described = await duckdbRows(`DESCRIBE SELECT * FROM read_parquet(${sqlPath(file)})`);
      return Object.fromEntries(described.map((row) => [row.column_name as string, row.column_type as string]));
    };
    const pes = await types('mpegts/pes-timestamps');
    expect(pes).to.include({ seq: 'BIGINT', offset: 'BIGINT', t: 'DOUBLE', pid: 'BIGINT', pts90kHz: 'BIGINT', randomAccess: 'BOOLEAN' });
    expect(await types('klv/packets')).to.include({ raw: 'BLOB', keyHex: 'VARCHAR', length: 'BIGINT' });
    const metadata = await types('klv/metadata-packets');
    expect(metadata).to.include({ timestampMicros: 'TIMESTAMP WITH TIME ZONE', precisionTimeStamp: 'TIMESTAMP WITH TIME ZONE', sensorLatitude: 'DOUBLE', missionId: 'VARCHAR', platformTrueAirspeed: 'BIGINT' });
  });

  it('answers every bad request with the JSON error body before any byte of a file', async () => {
    const { path } = writeGenerated(server.root, 'errors.ts', { durationSeconds: 1, bitrate: 2_000_000, seed: 13, klv: { carriage: 'sync' } });
    const { runId } = await inspect(path);
    const cases: Array<[string, number, string, string | undefined]> = [
      [`/automation/ingest-runs/${runId}/klv/fields?format=orc`, 400, 'ERR_INVALID_FIELD', undefined],
      [`/automation/ingest-runs/${runId}/klv/fields?format=parquet&limit=0`, 400, 'ERR_DATASET_INVALID_PARAMETER', 'limit'],
      [`/automation/ingest-runs/${runId}/klv/fields?format=arrow&types=continuity-error`, 400, 'ERR_DATASET_INVALID_PARAMETER', 'types'],
      [`/automation/ingest-runs/${runId}/mpegts/errors?format=parquet&types=no-such-error`, 400, 'ERR_DATASET_INVALID_PARAMETER', 'types'],
      [`/automation/ingest-runs/${runId}/mpegts/errors?format=arrow&offset=1&cursor=djE6NTk`, 400, 'ERR_DATASET_INVALID_PARAMETER', 'cursor'],
      [`/automation/ingest-runs/no-such-run/klv/packets?format=parquet`, 404, 'ERR_INGEST_RUN_NOT_FOUND', undefined],
    ];
    for (const [path, status, code, parameter] of cases) {
      const answer = await server.call(path);
      expect([answer.status, answer.headers.get('content-type')], path).to.deep.equal([status, 'application/json; charset=utf-8']);
      const body = answer.json as { error: { code: string; message: string; details?: { parameter?: string } } };
      expect(body.error.code, path).to.equal(code);
      if (parameter !== undefined) expect(body.error.details?.parameter, path).to.equal(parameter);
    }
  });

  it('takes the format from the Accept header, and pages a columnar export with limit and cursor', async () => {
    const { path } = writeGenerated(server.root, 'accept.ts', { durationSeconds: 2, bitrate: 2_000_000, seed: 14, klv: { carriage: 'sync' } });
    const { runId } = await inspect(path);
    const base = `/automation/ingest-runs/${runId}/mpegts/pcr-values`;
    const parquet = await fetch(`${server.url}${base}`, { headers: { 'x-api-key': server.key, accept: 'application/vnd.apache.parquet' } });
    const bytes = Buffer.from(await parquet.arrayBuffer());
    expect([parquet.headers.get('content-type'), bytes.subarray(0, 4).toString('latin1'), bytes.subarray(-4).toString('latin1')]).to.deep.equal(['application/vnd.apache.parquet', 'PAR1', 'PAR1']);
    const arrow = await fetch(`${server.url}${base}?limit=3`, { headers: { 'x-api-key': server.key, accept: 'application/vnd.apache.arrow.stream, application/json;q=0.5' } });
    expect(arrow.headers.get('content-type')).to.equal('application/vnd.apache.arrow.stream');
    const file = join(folder, 'page.arrow');
    writeFileSync(file, Buffer.from(await arrow.arrayBuffer()));
    expect(arrowStreamAsParquet(file, `${file}.parquet`).rows).to.equal(3);
    const page = (await server.call(`${base}?limit=3`)).json as { rows: Row[]; nextCursor: string };
    const read = await duckdbRows(`SELECT seq FROM read_parquet(${sqlPath(`${file}.parquet`)}) ORDER BY seq`);
    expect(read.map((row) => Number(row.seq))).to.deep.equal(page.rows.map((row) => row.seq));
  });
});
