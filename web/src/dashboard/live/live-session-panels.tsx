/**
 * A live session's panels, from its log: the findings list with its filter,
 * the KLV track on the map, and the statistics charts. The live page shows
 * them for the service's own session, the probe session page for a hub's.
 */
import { useState } from 'preact/hooks';
import 'leaflet/dist/leaflet.css';
import { TrackMap } from '../../viewer/track-map.js';
import { useMapTiles } from '../../shared/map-tiles.js';
import { NO_FILTER, type FindingFilter } from './finding-filter.js';
import { LiveFindingsList } from './live-findings-list.js';
import type { LiveSessionLog } from './live-session-log.js';
import { StatisticsCharts } from './statistics-charts.js';
import './live.css';

export function LiveSessionPanels({ log, version }: { log: LiveSessionLog; version: number }) {
  const [drawn, setDrawn] = useState({ platform: 0, frameCentre: 0 });
  const [filter, setFilter] = useState<FindingFilter>(NO_FILTER);
  const mapTiles = useMapTiles();
  return (
    <div class="live-grid">
      <LiveFindingsList findings={log.findings} total={log.findingsCounted} byCheck={log.findingsByCheck} filter={filter} onFilter={setFilter} />
      <section class="panel live-map" aria-label="map" data-platform-points={drawn.platform} data-frame-centre-points={drawn.frameCentre} data-metadata-packets={log.metadataPackets}>
        <h2>KLV track</h2>
        <TrackMap
          track={log.track}
          trackVersion={version}
          current={log.latest}
          tileUrl={mapTiles?.url ?? null}
          tileMaxNativeZoom={mapTiles?.maxNativeZoom}
          onDrawn={(platform, frameCentre) => setDrawn((old) => (old.platform === platform && old.frameCentre === frameCentre ? old : { platform, frameCentre }))}
        />
      </section>
      <StatisticsCharts readings={log.statistics} version={version} />
    </div>
  );
}
