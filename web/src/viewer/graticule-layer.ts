/**
 * Lines of latitude and longitude with their labels, spaced for the zoom so
 * that labels do not overlap, redrawn as the map moves. Latitudes are named
 * at the east edge, longitudes at the south edge.
 */
import * as L from 'leaflet';

/** Spacings in degrees, fine to coarse. */
const STEPS_DEG = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
/** Room for a label between two lines, pixels. */
const MIN_GAP_X_PX = 90;
const MIN_GAP_Y_PX = 40;
/** A label's room from its line to the map's edge, pixels: half a longitude label's width, a latitude label's height (on its plate). */
const LON_LABEL_HALF_WIDTH_PX = 30;
const LAT_LABEL_HEIGHT_PX = 18;

export class GraticuleLayer {
  readonly layer = L.layerGroup();
  private map: L.Map | null = null;
  private readonly redraw = () => this.draw();

  addTo(map: L.Map): this {
    this.map = map;
    this.layer.addTo(map);
    map.on('moveend zoomend resize', this.redraw);
    this.draw();
    return this;
  }

  remove(): void {
    this.map?.off('moveend zoomend resize', this.redraw);
    this.layer.remove();
    this.map = null;
  }

  private draw(): void {
    const map = this.map;
    if (!map) return;
    this.layer.clearLayers();
    const bounds = map.getBounds();
    const south = Math.max(-90, bounds.getSouth());
    const north = Math.min(90, bounds.getNorth());
    const west = bounds.getWest();
    const east = bounds.getEast();
    const size = map.getSize();
    const needed = Math.max((MIN_GAP_X_PX * (east - west)) / size.x, (MIN_GAP_Y_PX * (north - south)) / size.y);
    const step = STEPS_DEG.find((s) => s >= needed) ?? STEPS_DEG[STEPS_DEG.length - 1];
    const decimals = Math.max(0, Math.ceil(-Math.log10(step)));
    const line = { color: '#8899aa', weight: 0.6, opacity: 0.8, interactive: false };
    // Labels sit just inside the view's east and south edges.
    const labelLon = east - (east - west) * 0.005;
    const labelLat = south + (north - south) * 0.02;
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      L.polyline([[lat, west], [lat, east]], line).addTo(this.layer);
      // Not in the corner the longitude labels take, nor cut by the top edge (the label sits above its line).
      const labelTop = map.latLngToContainerPoint([lat, labelLon]).y - LAT_LABEL_HEIGHT_PX;
      if (lat > south + (north - south) * 0.06 && labelTop >= 0) this.label([lat, labelLon], formatLatitude(lat, decimals), 'lat').addTo(this.layer);
    }
    for (let lon = Math.ceil(west / step) * step; lon <= east; lon += step) {
      L.polyline([[south, lon], [north, lon]], line).addTo(this.layer);
      // Centred on its line: one too near the west or east edge would be cut.
      const x = map.latLngToContainerPoint([labelLat, lon]).x;
      if (x >= LON_LABEL_HALF_WIDTH_PX && x <= size.x - LON_LABEL_HALF_WIDTH_PX) this.label([labelLat, lon], formatLongitude(lon, decimals), 'lon').addTo(this.layer);
    }
  }

  private label(at: L.LatLngExpression, text: string, axis: 'lat' | 'lon'): L.Marker {
    return L.marker(at, {
      // Leaflet places the icon with a CSS transform of its own: the inner span is what CSS may move.
      icon: L.divIcon({ className: `graticule-label graticule-${axis}`, html: `<span>${text}</span>`, iconSize: [0, 0] }),
      interactive: false,
      keyboard: false,
    });
  }
}

function formatLatitude(lat: number, decimals: number): string {
  const rounded = Number(lat.toFixed(decimals));
  return `${Math.abs(rounded).toFixed(decimals)}°${rounded > 0 ? 'N' : rounded < 0 ? 'S' : ''}`;
}

function formatLongitude(lon: number, decimals: number): string {
  // Longitudes past the antimeridian (a map scrolled around the world) are named within ±180.
  const wrapped = Number((((((lon + 180) % 360) + 360) % 360) - 180).toFixed(decimals));
  return `${Math.abs(wrapped).toFixed(decimals)}°${wrapped > 0 ? 'E' : wrapped < 0 ? 'W' : ''}`;
}
