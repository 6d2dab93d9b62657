/**
 * The flight of an ingest run as a GIS file (added beside the spec's KLV
 * datasets): GET /automation/ingest-runs/{id}/klv/track?format=geojson|kml|gpx
 * (default geojson): the platform track, the frame-centre track and the
 * sensor footprints, from the run's ST 0601 metadata packets
 * (core/src/store/track). Streamed as the datasets are, the run leased for
 * the length of the answer; a run that is not completed is 409, as for them.
 */
import { Readable } from 'node:stream';
import { exportFlightTrack, TRACK_FORMATS, type DatabaseLease, type StoredRun, type TrackExport } from '@klvscope/core/store';
import * as z from 'zod/mini';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { ingestRunOf, runParams } from './automation-routes.js';

const trackQuery = z.strictObject({
  /** geojson (default), kml or gpx. */
  format: z.optional(z.enum(TRACK_FORMATS)),
});

/** The GeoJSON form (KML and GPX are XML). */
const featureCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.record(z.string(), z.unknown())),
});

/** The chunks, then the lease given back: at the end, or early when the stream is destroyed. */
function* releasingAtEnd(output: TrackExport, lease: DatabaseLease<StoredRun>): Generator<Buffer, void, undefined> {
  try {
    yield* output;
  } finally {
    lease.release();
  }
}

export const flightTrackRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/automation/ingest-runs/:id/klv/track',
    summary: 'the flight of an ingest run from its ST 0601 metadata packets: platform track, frame-centre track and sensor footprints, as GeoJSON, KML or GPX',
    schemas: { params: runParams, query: trackQuery, response: featureCollectionSchema },
    handle: async ({ params, query, reply }) => {
      const run = ingestRunOf(deps, params.id);
      if (run.status !== 'completed') {
        throw new InspectionError('ERR_INGEST_RUN_NOT_COMPLETED', `ingest run '${params.id}' is ${run.status}: only a completed run has a track`, { id: params.id, status: run.status });
      }
      const format = query.format ?? 'geojson';
      const lease = await deps.store.leaseRun(run.id);
      let output: TrackExport;
      try {
        output = exportFlightTrack(lease.database, format, `klvscope flight ${run.path} (ingest run ${run.id})`);
      } catch (error) {
        lease.release();
        throw error;
      }
      reply.raw.once('close', () => lease.release());
      void reply
        .header('content-type', `${output.mediaType}; charset=utf-8`)
        .header('x-track-packets', String(output.summary.packets))
        .header('content-disposition', `attachment; filename="${run.id}-track.${format}"`);
      return reply.send(Readable.from(releasingAtEnd(output, lease), { objectMode: false }));
    },
  }),
];
