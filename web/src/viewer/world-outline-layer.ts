/**
 * The coastlines of the world at 1:110m (Natural Earth, public domain,
 * through world-atlas's TopoJSON: ~55 KB), bundled, so the map has land to
 * show without a tile server.
 */
import * as L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import land from 'world-atlas/land-110m.json';

export function worldOutlineLayer(): L.GeoJSON {
  const topology = land as unknown as Topology<{ land: GeometryCollection }>;
  return L.geoJSON(feature(topology, topology.objects.land), {
    style: { color: '#6b7b5a', weight: 1, fillColor: '#d9dcc8', fillOpacity: 1 },
    interactive: false,
  });
}
