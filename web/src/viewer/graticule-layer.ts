/**
 * Lines of latitude and longitude with their labels, spaced for the zoom
 * (at least three lines across the view's shorter side), redrawn as the map moves.
 */
import * as L from 'leaflet';

/** Spacings in degrees, coarse to fine. */
const STEPS_DEG = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];

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
    const step = STEPS_DEG.find((s) => Math.min(north - south, east - west) / s >= 3) ?? STEPS_DEG[STEPS_DEG.length - 1];
    const decimals = Math.max(0, Math.ceil(-Math.log10(step)));
    const line = { color: '#8899aa', weight: 0.6, opacity: 0.8, interactive: false };
    // Labels sit just inside the view's west and south edges.
    const labelLon = west + (east - west) * 0.01;
    const labelLat = south + (north - south) * 0.02;
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      L.polyline([[lat, west], [lat, east]], line).addTo(this.layer);
      this.label([lat, labelLon], formatLatitude(lat, decimals), 'lat').addTo(this.layer);
    }
    for (let lon = Math.ceil(west / step) * step; lon <= east; lon += step) {
      L.polyline([[south, lon], [north, lon]], line).addTo(this.layer);
      this.label([labelLat, lon], formatLongitude(lon, decimals), 'lon').addTo(this.layer);
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
