/**
 * The platform and frame-centre positions of every metadata packet received,
 * in arrival order: the tracks the map draws. Append-only, so the map adds
 * only what it has not drawn yet; the oldest points go past a cap, which each
 * track's `dropped` count tells the map.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';

export type LatLon = [number, number];

/** About 11 minutes of 30 Hz metadata. */
const MAX_POINTS = 20_000;

/** One track: its points, oldest first, and how many were dropped from the front since the start. */
export class Track {
  readonly points: LatLon[] = [];
  dropped = 0;

  add(point: LatLon | null): void {
    if (point === null) return;
    this.points.push(point);
    if (this.points.length > MAX_POINTS) {
      this.points.shift();
      this.dropped++;
    }
  }
}

export class TrackLog {
  readonly platform = new Track();
  readonly frameCentre = new Track();

  add(values: FrameKlvValues): void {
    this.platform.add(positionOf(values.sensorLatitudeDeg, values.sensorLongitudeDeg));
    this.frameCentre.add(positionOf(values.frameCenterLatitudeDeg, values.frameCenterLongitudeDeg));
  }
}

/** A drawable position: both coordinates present and finite, else null. */
export function positionOf(latitudeDeg: number | null, longitudeDeg: number | null): LatLon | null {
  return latitudeDeg !== null && longitudeDeg !== null && Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) ? [latitudeDeg, longitudeDeg] : null;
}
