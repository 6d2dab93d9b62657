/**
 * A plausible flight for synthetic ST 0601 metadata: a UAS flies a clockwise
 * orbit (a steady right turn) around a point of interest and keeps its
 * sensor on it, as in a typical surveillance orbit. Every value is what the
 * ST 0601 item of the same name describes (ST 0601.17 section 8):
 *
 * - platform position and altitude above MSL (items 13-15), heading from
 *   true north (5), pitch nose up positive (6), roll right wing down positive
 *   (7, the bank of a coordinated turn: tan(roll) = v^2 / (g r));
 * - the frame center (23-25) is the point looked at, wandering slowly near
 *   the orbit center; the sensor's line of sight to it gives the slant range
 *   (21) and, turned into the platform's body frame (heading, pitch, roll:
 *   the aerospace 3-2-1 rotation ST 0601 uses for items 18-20), the relative
 *   azimuth (18, clockwise from the nose) and elevation (19, negative below
 *   the platform's longitudinal axis); relative roll (20) stays 0;
 * - fields of view (16-17) of a 16:9 sensor zooming slowly.
 *
 * Distances use a local flat-earth approximation around the orbit center,
 * good to a few metres over a few kilometres: realistic, not surveyed.
 */
import type { SeededRandom } from './seeded-random.js';

/** The flight's values at one instant, in ST 0601 units (degrees, metres). */
export interface FlightSample {
  platformHeadingDeg: number;
  platformPitchDeg: number;
  platformRollDeg: number;
  sensorLatitudeDeg: number;
  sensorLongitudeDeg: number;
  sensorAltitudeM: number;
  horizontalFovDeg: number;
  verticalFovDeg: number;
  sensorRelativeAzimuthDeg: number;
  sensorRelativeElevationDeg: number;
  sensorRelativeRollDeg: number;
  slantRangeM: number;
  frameCenterLatitudeDeg: number;
  frameCenterLongitudeDeg: number;
  frameCenterElevationM: number;
}

/** Metres per degree of latitude (mean, WGS 84): the flat-earth scale near the orbit. */
const METRES_PER_DEGREE = 111_320;
const GRAVITY = 9.80665;
const DEG = Math.PI / 180;
/** Width over height of the imaged frame (16:9 HD). */
const ASPECT = 16 / 9;

/** A sample with every value 0 (each in its ST 0601 range): a shape for templates, a start for reuse. */
export function stillFlightSample(): FlightSample {
  return {
    platformHeadingDeg: 0,
    platformPitchDeg: 0,
    platformRollDeg: 0,
    sensorLatitudeDeg: 0,
    sensorLongitudeDeg: 0,
    sensorAltitudeM: 0,
    horizontalFovDeg: 0,
    verticalFovDeg: 0,
    sensorRelativeAzimuthDeg: 0,
    sensorRelativeElevationDeg: 0,
    sensorRelativeRollDeg: 0,
    slantRangeM: 0,
    frameCenterLatitudeDeg: 0,
    frameCenterLongitudeDeg: 0,
    frameCenterElevationM: 0,
  };
}

/** Degrees in [0, 360). */
function wrap360(deg: number): number {
  const d = deg % 360;
  return d < 0 ? d + 360 : d;
}

export class FlightPath {
  private readonly centerLatDeg: number;
  private readonly centerLonDeg: number;
  private readonly metresPerDegreeLon: number;
  private readonly groundElevationM: number;
  private readonly altitudeM: number;
  private readonly radiusM: number;
  private readonly angularRateDegPerS: number;
  private readonly phaseDeg: number;
  private readonly bankDeg: number;
  private readonly sample: FlightSample = stillFlightSample();

  /** An orbit whose place, size, height and phase come from `random`. */
  constructor(random: SeededRandom) {
    // Somewhere over high desert, 600-1000 m above MSL.
    this.centerLatDeg = random.between(35, 37);
    this.centerLonDeg = random.between(-117, -114);
    this.metresPerDegreeLon = METRES_PER_DEGREE * Math.cos(this.centerLatDeg * DEG);
    this.groundElevationM = Math.round(random.between(600, 1000));
    this.altitudeM = this.groundElevationM + random.between(1200, 1800);
    this.radiusM = random.between(1800, 2600);
    const speed = random.between(35, 45);
    this.angularRateDegPerS = (speed / this.radiusM) / DEG;
    this.phaseDeg = random.between(0, 360);
    this.bankDeg = Math.atan((speed * speed) / (GRAVITY * this.radiusM)) / DEG;
  }

  /** The flight `seconds` after the first packet (the returned object is reused by the next call). */
  at(seconds: number): FlightSample {
    const s = this.sample;
    const twoPi = 2 * Math.PI;
    // Bearing of the platform from the orbit center; clockwise flight heads 90° right of it.
    const bearingDeg = this.phaseDeg + this.angularRateDegPerS * seconds;
    const northM = this.radiusM * Math.cos(bearingDeg * DEG);
    const eastM = this.radiusM * Math.sin(bearingDeg * DEG);
    const heading = wrap360(bearingDeg + 90);
    const pitch = 1.5 + 0.4 * Math.sin((twoPi * seconds) / 11);
    const roll = this.bankDeg + 0.6 * Math.sin((twoPi * seconds) / 7);
    const altitude = this.altitudeM + 4 * Math.sin((twoPi * seconds) / 23);

    // The operator keeps the point of interest in view; it wanders ~30 m about the center.
    const wanderDeg = (360 * seconds) / 90;
    const targetNorthM = 30 * Math.cos(wanderDeg * DEG);
    const targetEastM = 30 * Math.sin(wanderDeg * DEG);

    // Line of sight in north-east-down, then in the body frame (Rx(roll) Ry(pitch) Rz(heading)).
    const dn = targetNorthM - northM;
    const de = targetEastM - eastM;
    const dd = altitude - this.groundElevationM;
    const [sh, ch] = [Math.sin(heading * DEG), Math.cos(heading * DEG)];
    const [sp, cp] = [Math.sin(pitch * DEG), Math.cos(pitch * DEG)];
    const [sr, cr] = [Math.sin(roll * DEG), Math.cos(roll * DEG)];
    const x1 = ch * dn + sh * de;
    const y1 = -sh * dn + ch * de;
    const x2 = cp * x1 - sp * dd;
    const z2 = sp * x1 + cp * dd;
    const y3 = cr * y1 + sr * z2;
    const z3 = -sr * y1 + cr * z2;

    const hfov = 6 + 2 * Math.sin((twoPi * seconds) / 45);
    s.platformHeadingDeg = heading;
    s.platformPitchDeg = pitch;
    s.platformRollDeg = roll;
    s.sensorLatitudeDeg = this.centerLatDeg + northM / METRES_PER_DEGREE;
    s.sensorLongitudeDeg = this.centerLonDeg + eastM / this.metresPerDegreeLon;
    s.sensorAltitudeM = altitude;
    s.horizontalFovDeg = hfov;
    s.verticalFovDeg = (2 * Math.atan(Math.tan((hfov / 2) * DEG) / ASPECT)) / DEG;
    s.sensorRelativeAzimuthDeg = wrap360(Math.atan2(y3, x2) / DEG);
    s.sensorRelativeElevationDeg = Math.atan2(-z3, Math.hypot(x2, y3)) / DEG;
    s.sensorRelativeRollDeg = 0;
    s.slantRangeM = Math.hypot(dn, de, dd);
    s.frameCenterLatitudeDeg = this.centerLatDeg + targetNorthM / METRES_PER_DEGREE;
    s.frameCenterLongitudeDeg = this.centerLonDeg + targetEastM / this.metresPerDegreeLon;
    s.frameCenterElevationM = this.groundElevationM;
    return s;
  }
}
