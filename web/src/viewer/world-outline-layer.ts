/**
 * The coastlines of the world at 1:110m (Natural Earth, public domain,
 * through world-atlas's TopoJSON: ~55 KB), bundled, so the map has land to
 * show without a tile server.
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import * as L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import land from 'world-atlas/land-110m.json';

/** In `pane`: one above the tiles, so that the coasts stay drawn over imagery (unfilled then, see track-map.tsx). */
export function worldOutlineLayer(pane: string): L.GeoJSON {
  const topology = land as unknown as Topology<{ land: GeometryCollection }>;
  const outlines = feature(topology, topology.objects.land);
  return L.geoJSON(mapRings(outlines, joinAcrossAntimeridian), {
    style: { color: '#6b7b5a', weight: 1, fillColor: '#d9dcc8', fillOpacity: 1 },
    interactive: false,
    pane,
  });
}

/**
 * Natural Earth cuts land that crosses the antimeridian (Chukotka, Fiji) at
 * ±180°, and Leaflet would draw the cut as a line round the whole world: the
 * far-west points of such a ring (west of 90°W) go east by 360°, beside the
 * rest. Antarctica, whose ring runs round the pole, stays as it is.
 */
function joinAcrossAntimeridian(ring: Position[]): Position[] {
  const crosses = ring.some((point, i) => i > 0 && Math.abs(point[0] - ring[i - 1][0]) > 180);
  if (!crosses || ring.some(([, lat]) => lat < -80)) return ring;
  return ring.map(([lon, lat]) => [lon < -90 ? lon + 360 : lon, lat]);
}

function mapRings(collection: FeatureCollection | Feature, map: (ring: Position[]) => Position[]): FeatureCollection | Feature {
  const mapGeometry = (geometry: Geometry): Geometry => {
    if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(map) };
    if (geometry.type === 'MultiPolygon') return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(map)) };
    return geometry;
  };
  if (collection.type === 'Feature') return { ...collection, geometry: mapGeometry(collection.geometry) };
  return { ...collection, features: collection.features.map((item) => ({ ...item, geometry: mapGeometry(item.geometry) })) };
}
