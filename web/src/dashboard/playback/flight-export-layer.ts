/**
 * The run's GIS export drawn on its map: the GeoJSON that
 * `GET /automation/ingest-runs/{id}/klv/track?format=geojson` gives a GIS
 * tool (docs/rest.md), its sensor footprints as polygons and its
 * frame-centre track as a line. Drawn from the export itself, not from the
 * page's own reading of the packets, so that what an analyst opens in QGIS
 * can be seen here first, over the same flight.
 */
import type { Feature, FeatureCollection } from 'geojson';
import * as L from 'leaflet';
import { useEffect, useState } from 'preact/hooks';
import { UNDER_TRACKS_PANE } from '../../viewer/track-map.js';
import type { ApiClient } from '../api-client.js';
import { useApiData } from '../use-api-data.js';

/** The `kind` property of the export's features that the layer draws. */
const DRAWN_KINDS = new Set(['footprint', 'frame-centre-track']);

export interface FlightExportLayer {
  layer: L.GeoJSON;
  /** Polygons and lines on the layer: what the page's probe reports. */
  footprints: number;
  frameCentreLines: number;
}

export function loadFlightExport(api: ApiClient, ingestRunId: string): Promise<FeatureCollection> {
  return api.get<FeatureCollection>(`/automation/ingest-runs/${encodeURIComponent(ingestRunId)}/klv/track`, { format: 'geojson' });
}

function kindOf(feature: Feature | undefined): unknown {
  return feature?.properties?.kind;
}

export function flightExportLayer(collection: FeatureCollection): FlightExportLayer {
  // Thousands of footprints: one canvas draws them where as many SVG paths would slow panning.
  const renderer = L.canvas({ padding: 0.2, pane: UNDER_TRACKS_PANE });
  const layer = L.geoJSON(collection, {
    filter: (feature) => DRAWN_KINDS.has(kindOf(feature) as string) && feature.geometry !== null,
    style: (feature) =>
      kindOf(feature) === 'footprint'
        ? { renderer, color: '#8e44ad', weight: 1, opacity: 0.55, fillColor: '#af7ac5', fillOpacity: 0.06 }
        : { renderer, color: '#117a65', weight: 2.5, opacity: 0.95 },
  });
  let footprints = 0;
  let frameCentreLines = 0;
  layer.eachLayer((drawn) => {
    const kind = kindOf((drawn as L.GeoJSON).feature as Feature | undefined);
    if (kind === 'footprint') footprints++;
    else if (kind === 'frame-centre-track') frameCentreLines++;
  });
  return { layer, footprints, frameCentreLines };
}

export type FlightExportState = { state: 'off' } | { state: 'loading' } | { state: 'failed'; error: Error } | ({ state: 'drawn' } & FlightExportLayer);

/** The export's layer while `shown`: fetched the first time it is asked for, kept for the next time. */
export function useFlightExport(api: ApiClient, ingestRunId: string, shown: boolean): FlightExportState {
  const [wanted, setWanted] = useState(shown);
  useEffect(() => {
    if (shown) setWanted(true);
  }, [shown]);
  const loaded = useApiData(async () => (wanted ? flightExportLayer(await loadFlightExport(api, ingestRunId)) : null), [api, ingestRunId, wanted]);
  if (!shown) return { state: 'off' };
  if (loaded.state === 'failed') return { state: 'failed', error: loaded.error };
  if (loaded.state === 'loading' || loaded.data === null) return { state: 'loading' };
  return { state: 'drawn', ...loaded.data };
}
