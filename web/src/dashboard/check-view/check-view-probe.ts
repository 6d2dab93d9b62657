/**
 * What the check page shows, as data, on `window.klvscopeCheckView`, for the
 * browser tests and the benchmark to compare with what REST returns. The
 * page writes it; nothing reads it but a test.
 */

export interface CheckViewProbe {
  checkId: string | null;
  /** Points drawn (rows with a stream time), points the endpoint gave, series, violation rings. */
  plottedPoints: number;
  detailPoints: number;
  series: number;
  violationMarkers: number;
  /** The limit lines drawn, by value. */
  limits: number[];
  /** The plot's y axis as last drawn: its range, the limits written at its edge (off the scale), its tick labels; null with nothing plotted. */
  yAxis: { min: number; max: number; offScale: number[]; tickLabels: string[] } | null;
  /** Milliseconds from having the columns to the plot drawn (uPlot's creation and first draw). */
  plotDrawnMs: number | null;
  selectedRow: number | null;
  /** The shared time cursor, stream time in seconds. */
  cursorTimeS: number | null;
  /** Seek requests made (selecting a violation). */
  seeks: number;
  framesShown: number;
  /** The frame on screen: media time, its mapped PTS (33 bits), its stream time, and the PTS of the packet the panel shows. */
  frame: { mediaTime: number; pts90kHz: number; streamTimeS: number; klvPts90kHz: number | null } | null;
  /** The packet the metadata panel (and the map's position) shows: its PID, arrival in stream time, PTS and platform latitude. */
  panelKlv: { pid: number; streamTimeS: number | null; pts90kHz: number | null; sensorLatitudeDeg: number | null } | null;
  metadataPackets: number;
  trackPointCount: number;
  frameCentrePointCount: number;
  /** The run's GIS export on the map (the "GeoJSON export" toggle): off, loading, drawn or failed, and the footprint polygons and frame-centre lines drawn. */
  flightExport: { state: 'off' | 'loading' | 'drawn' | 'failed'; footprints: number; frameCentreLines: number };
  /** Why there is no picture, as the page says it; null while the video plays. */
  videoNotice: string | null;
  /** The URL the player plays (the playback URL, or its `?video=h264` variant); null before it plays. */
  videoUrl: string | null;
  /** Every transcoding progress shown (0..1), in order. */
  transcodingProgress: number[];
}

export function emptyCheckViewProbe(): CheckViewProbe {
  return {
    checkId: null,
    plottedPoints: 0,
    detailPoints: 0,
    series: 0,
    violationMarkers: 0,
    limits: [],
    plotDrawnMs: null,
    yAxis: null,
    selectedRow: null,
    cursorTimeS: null,
    seeks: 0,
    framesShown: 0,
    frame: null,
    panelKlv: null,
    metadataPackets: 0,
    trackPointCount: 0,
    frameCentrePointCount: 0,
    flightExport: { state: 'off', footprints: 0, frameCentreLines: 0 },
    videoNotice: null,
    videoUrl: null,
    transcodingProgress: [],
  };
}
