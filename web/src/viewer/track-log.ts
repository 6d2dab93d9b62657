/**
 * The platform and frame-centre positions of every metadata packet received,
 * in arrival order: the tracks the map draws. Append-only, so the map adds
 * only what it has not drawn yet; the oldest points go past a cap, which a
 * `dropped` count tells the map.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';

export type LatLon = [number, number];

/** About 11 minutes of 30 Hz metadata. */
const MAX_POINTS = 20_000;

export class TrackLog {
  readonly platform: LatLon[] = [];
  readonly frameCentre: LatLon[] = [];
  /** Points dropped from the front of each track since the start (the cap). */
  platformDropped = 0;
  frameCentreDropped = 0;

  add(values: FrameKlvValues): void {
    const platform = positionOf(values.sensorLatitudeDeg, values.sensorLongitudeDeg);
    if (platform !== null) {
      this.platform.push(platform);
      if (this.platform.length > MAX_POINTS) {
        this.platform.shift();
        this.platformDropped++;
      }
    }
    const frameCentre = positionOf(values.frameCenterLatitudeDeg, values.frameCenterLongitudeDeg);
    if (frameCentre !== null) {
      this.frameCentre.push(frameCentre);
      if (this.frameCentre.length > MAX_POINTS) {
        this.frameCentre.shift();
        this.frameCentreDropped++;
      }
    }
  }
}

/** A drawable position: both coordinates present and finite, else null. */
export function positionOf(latitudeDeg: number | null, longitudeDeg: number | null): LatLon | null {
  return latitudeDeg !== null && longitudeDeg !== null && Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) ? [latitudeDeg, longitudeDeg] : null;
}
