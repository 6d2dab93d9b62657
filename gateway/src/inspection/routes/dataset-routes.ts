/**
 * The raw datasets of an ingest run (spec "Raw datasets"):
 * GET /automation/ingest-runs/{id}/{mpegts|klv}/..., one route per dataset
 * of RAW_DATASETS. The rows leave as they are read from the run database,
 * in chunks of about 64 KiB, at the pace the client takes them (a stream
 * with backpressure), so an export of millions of rows never sits in
 * memory. The run is leased for the length of the stream and
 * given back at its end, or when the client goes away.
 *
 * Decisions (docs/rest.md): the format is `format=json|ndjson|csv|arrow|parquet`, else
 * the Accept header, else JSON; without `limit` every row is sent; the
 * dataset layer checks the paging and filter values (400
 * ERR_DATASET_INVALID_PARAMETER naming the parameter); a run that is not
 * completed has no datasets (409). `X-Total-Count` carries the rows
 * matching the filters; NDJSON and CSV carry the next page's cursor in the
 * `X-Next-Cursor` trailer (JSON has it in its body).
 */
import { Readable } from 'node:stream';
import { RAW_DATASETS, exportDataset, exportDatasetColumnar, type ColumnarExport, type DatasetExport, type DatabaseLease, type StoredRun } from '@klvscope/core/store';
import * as z from 'zod/mini';
import { datasetFormatOf, EXPORT_FORMATS, isColumnarFormat } from '../dataset-format.js';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { ingestRunOf, runParams } from './automation-routes.js';

/** Query strings arrive as text (a repeated parameter as a list); the dataset layer parses and checks the values. */
const text = z.optional(z.string());
const datasetQuery = z.strictObject({
  /** Rows at most (1 or more); without it, every row after offset or cursor. */
  limit: text,
  offset: text,
  /** The `nextCursor` of the previous page. */
  cursor: text,
  /** `mpegts/table-positions` only: PAT or PMT. */
  tableType: text,
  /** `mpegts/errors` only: TS error types, comma-separated and/or repeated. */
  types: z.optional(z.union([z.string(), z.array(z.string())])),
  format: z.optional(z.enum(EXPORT_FORMATS)),
});

/** The JSON form (NDJSON and CSV hold the same rows, one per line). */
const datasetPageSchema = z.object({
  /** Rows matching the filters in the whole dataset. */
  total: z.number(),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** The cursor of the next page, or null after the last row. */
  nextCursor: z.nullable(z.string()),
});

/** The chunks, then the lease given back: at the end, or early when the stream is destroyed (iterator return). */
async function* releasingAtEnd(output: DatasetExport | ColumnarExport, lease: DatabaseLease<StoredRun>): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    yield* output;
  } finally {
    lease.release();
  }
}

export const datasetRoutes: RouteModule = (deps) =>
  RAW_DATASETS.map((dataset) =>
    defineRoute({
      method: 'GET',
      path: `/automation/ingest-runs/:id/${dataset.name}`,
      summary: `raw dataset ${dataset.name} of an ingest run: ${dataset.description}`,
      schemas: { params: runParams, query: datasetQuery, response: datasetPageSchema },
      handle: async ({ params, query, request, reply }) => {
        const run = ingestRunOf(deps, params.id);
        if (run.status !== 'completed') {
          throw new InspectionError('ERR_INGEST_RUN_NOT_COMPLETED', `ingest run '${params.id}' is ${run.status}: only a completed run has datasets`, { id: params.id, status: run.status });
        }
        const { format: formatParameter, ...options } = query;
        const format = datasetFormatOf(formatParameter, request.headers.accept);
        const lease = await deps.store.leaseRun(run.id);
        let output: DatasetExport | ColumnarExport;
        try {
          // Checks every parameter and counts the rows before any byte: an error here is a whole error response.
          // A completed run's counts are its stored rows (the writer's own counts): an unfiltered query need not count them again.
          const checked = { ...options, unfilteredTotal: run.counts[dataset.kind] };
          output = isColumnarFormat(format) ? exportDatasetColumnar(lease.database, dataset.name, format, checked) : exportDataset(lease.database, dataset.name, format, checked);
        } catch (error) {
          lease.release();
          throw error;
        }
        // Whatever ends the response (the last chunk, a client gone before the first), the lease goes back once.
        reply.raw.once('close', () => lease.release());
        void reply.header('content-type', output.mediaType).header('x-total-count', String(output.total));
        // A columnar file is saved rather than shown: named after the run and the dataset.
        if (isColumnarFormat(format)) void reply.header('content-disposition', `attachment; filename="${run.id}-${dataset.name.replace('/', '-')}.${format}"`);
        if (format !== 'json') void reply.trailer('x-next-cursor', (_reply, _payload, done) => done(null, output.nextCursor ?? ''));
        return reply.send(Readable.from(releasingAtEnd(output, lease), { objectMode: false }));
      },
    }),
  );
