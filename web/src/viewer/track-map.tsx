/**
 * The map: coastlines and a graticule (no tile server needed; a tile layer
 * only when the configuration names one, the coasts then drawn unfilled over
 * it), the platform track, the frame-centre track, and for the frame on
 * screen the image footprint (ST 0601 corner points), the line of sight
 * (platform to frame centre) and the platform's position. It follows the
 * aircraft unless told not to. A page may add one layer under the tracks.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';
import * as L from 'leaflet';
import './track-map.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { GraticuleLayer } from './graticule-layer.js';
import { positionOf, type Track, type TrackLog } from './track-log.js';
import { worldOutlineLayer } from './world-outline-layer.js';

export interface TrackMapProps {
  track: TrackLog;
  /** Changes whenever the track log grew. */
  trackVersion: number;
  /** The values of the frame on screen. */
  current: FrameKlvValues | null;
  tileUrl: string | null;
  /** The deepest zoom the tiles have (Leaflet enlarges them past it); default 19. */
  tileMaxNativeZoom?: number;
  /** How many points the map's track lines hold now. */
  onDrawn: (platformPoints: number, frameCentrePoints: number) => void;
  /** Fit the whole track at first, not the first fix (a recording's flight, known in full). */
  fitTrack?: boolean;
  /** A layer drawn over the background and under the tracks (the dashboard's GIS export of a run); its renderer's pane should be UNDER_TRACKS_PANE. */
  overlay?: L.Layer | null;
  /** For the frame on screen: the footprint's corner count and whether the line of sight is drawn. */
  onFrameShapes?: (footprintCorners: number, lineOfSight: boolean) => void;
}

/** The map pane between the coastlines and the tracks (Leaflet's overlay pane, the tracks', is at z-index 400, its tiles at 200). */
export const UNDER_TRACKS_PANE = 'under-tracks';
/** The coastlines' pane: over the tiles, under everything else. */
const OUTLINE_PANE = 'world-outline';

interface MapLayers {
  map: L.Map;
  outline: L.GeoJSON;
  platformTrack: L.Polyline;
  frameCentreTrack: L.Polyline;
  footprint: L.Polygon;
  lineOfSight: L.Polyline;
  platform: L.CircleMarker;
  frameCentre: L.CircleMarker;
  /** What of each track is on its line. */
  drawn: { platform: DrawnTrack; frameCentre: DrawnTrack };
  fitted: boolean;
}

export function TrackMap({ track, trackVersion, current, tileUrl, onDrawn, fitTrack = false, overlay = null, tileMaxNativeZoom, onFrameShapes }: TrackMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const layersRef = useRef<MapLayers | null>(null);
  const [follow, setFollow] = useState(true);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, { center: [20, 0], zoom: 2, worldCopyJump: true, attributionControl: false });
    map.getContainer().style.background = '#b9d3e6';
    map.createPane(OUTLINE_PANE).style.zIndex = '300';
    map.createPane(UNDER_TRACKS_PANE).style.zIndex = '350';
    const outline = worldOutlineLayer(OUTLINE_PANE).addTo(map);
    const graticule = new GraticuleLayer().addTo(map);
    layersRef.current = {
      map,
      outline,
      platformTrack: L.polyline([], { color: '#c0392b', weight: 2 }).addTo(map),
      frameCentreTrack: L.polyline([], { color: '#1f5fa8', weight: 1.5, dashArray: '4 3' }).addTo(map),
      footprint: L.polygon([], { color: '#d68910', weight: 2, fillOpacity: 0.15 }).addTo(map),
      lineOfSight: L.polyline([], { color: '#7b241c', weight: 1.5, dashArray: '6 4' }).addTo(map),
      platform: L.circleMarker([0, 0], { radius: 6, color: '#7b241c', fillColor: '#e74c3c', fillOpacity: 1, weight: 2 }),
      frameCentre: L.circleMarker([0, 0], { radius: 4, color: '#1f5fa8', fillColor: '#ffffff', fillOpacity: 1, weight: 2 }),
      drawn: { platform: { points: 0, dropped: 0 }, frameCentre: { points: 0, dropped: 0 } },
      fitted: false,
    };
    return () => {
      graticule.remove();
      map.remove();
      layersRef.current = null;
    };
  }, []);

  useEffect(() => {
    const layers = layersRef.current;
    if (!layers || tileUrl === null) return;
    // Under the outlines and tracks: a configured tile server gives the background, the land's fill would hide it.
    const tiles = L.tileLayer(tileUrl, { maxZoom: 19, maxNativeZoom: tileMaxNativeZoom }).addTo(layers.map);
    layers.outline.setStyle({ fillOpacity: 0 });
    return () => {
      tiles.remove();
      layers.outline.resetStyle();
    };
  }, [tileUrl, tileMaxNativeZoom]);

  useEffect(() => {
    const layers = layersRef.current;
    if (!layers || overlay === null) return;
    overlay.addTo(layers.map);
    return () => {
      overlay.remove();
    };
  }, [overlay]);

  useEffect(() => {
    const layers = layersRef.current;
    if (!layers) return;
    drawNew(layers.platformTrack, track.platform, layers.drawn.platform);
    drawNew(layers.frameCentreTrack, track.frameCentre, layers.drawn.frameCentre);
    onDrawn(layers.platformTrack.getLatLngs().length, layers.frameCentreTrack.getLatLngs().length);
    if (fitTrack && !layers.fitted && track.platform.points.length > 0) {
      const bounds = L.latLngBounds([...track.platform.points, ...track.frameCentre.points]);
      layers.map.fitBounds(bounds.pad(0.2), { maxZoom: 15, animate: false });
      layers.fitted = true;
    }
  }, [track, trackVersion]);

  useEffect(() => {
    const layers = layersRef.current;
    if (!layers || current === null) return;
    const { map } = layers;
    const platform = positionOf(current.sensorLatitudeDeg, current.sensorLongitudeDeg);
    const frameCentre = positionOf(current.frameCenterLatitudeDeg, current.frameCenterLongitudeDeg);
    showAt(layers.platform, platform, map);
    showAt(layers.frameCentre, frameCentre, map);
    layers.footprint.setLatLngs(current.corners ?? []);
    layers.lineOfSight.setLatLngs(platform !== null && frameCentre !== null ? [platform, frameCentre] : []);
    onFrameShapes?.((current.corners ?? []).length, platform !== null && frameCentre !== null);
    if (platform === null) return;
    if (!layers.fitted) {
      // The first fix: the aircraft and what it sees.
      const bounds = L.latLngBounds([platform, ...(frameCentre ? [frameCentre] : []), ...(current.corners ?? [])]);
      map.fitBounds(bounds.pad(0.5), { maxZoom: 15, animate: false });
      layers.fitted = true;
    } else if (follow && !map.getBounds().pad(-0.2).contains(platform)) {
      map.panTo(platform, { animate: true, duration: 0.5 });
    }
  }, [current, follow]);

  return (
    <section class="track-map">
      <label class="follow">
        <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.currentTarget.checked)} /> follow
        the aircraft
      </label>
      <div ref={containerRef} class="map" />
    </section>
  );
}

/** How many of a track's points are on its line, and the track's drop count when they were drawn. */
interface DrawnTrack {
  points: number;
  dropped: number;
}

/** Brings the line to the track: drops from its front what the track dropped, adds the points not yet on it. */
function drawNew(line: L.Polyline, track: Track, drawn: DrawnTrack): void {
  const removed = track.dropped - drawn.dropped;
  if (removed < 0 || removed > drawn.points) {
    line.setLatLngs(track.points.slice());
  } else {
    if (removed > 0) {
      // Leaflet's own array of the line: cut it in place and redraw, instead of setting 20,000 points again.
      (line.getLatLngs() as L.LatLng[]).splice(0, removed);
      line.redraw();
    }
    for (let i = drawn.points - removed; i < track.points.length; i++) line.addLatLng(track.points[i]);
  }
  drawn.points = track.points.length;
  drawn.dropped = track.dropped;
}

function showAt(marker: L.CircleMarker, position: [number, number] | null, map: L.Map): void {
  if (position === null) {
    marker.remove();
    return;
  }
  marker.setLatLng(position);
  if (!map.hasLayer(marker)) marker.addTo(map);
}
