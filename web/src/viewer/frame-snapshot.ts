/**
 * A snapshot of the frame on screen as a PNG: the picture at its own size,
 * and under it, in lines of text, the frame's time (video shown since the
 * viewer joined, PTS, ST 0601 time stamp) and the main ST 0601 values of its
 * metadata packet, so that the image tells on its own where and when it was
 * taken.
 */
import type { StreamKlvMessage } from '@klvscope/core/browser';
import { formatElapsed } from './elapsed-format.js';
import { formatDegrees, formatMetres, formatTimestampMicros } from './klv-value-format.js';

const LINE_PX = 18;
const MARGIN_PX = 8;
const FONT = '13px "DejaVu Sans Mono", monospace';

export interface SnapshotFrame {
  elapsedS: number;
  pts90kHz: number;
  klv: StreamKlvMessage | null;
}

/** The lines written under the picture. */
export function snapshotCaption(frame: SnapshotFrame): string[] {
  const lines = [`frame at ${formatElapsed(frame.elapsedS, 3)} of this view, PTS ${frame.pts90kHz}`];
  const klv = frame.klv;
  if (klv === null) return [...lines, 'no metadata packet for this frame'];
  const v = klv.values;
  return [
    ...lines,
    `time stamp ${formatTimestampMicros(v.timestampMicros)}   ${klv.standard}, PID ${klv.pid}, packet PTS ${klv.pts90kHz ?? 'none'}`,
    `platform ${formatDegrees(v.sensorLatitudeDeg)} ${formatDegrees(v.sensorLongitudeDeg)}   altitude ${formatMetres(v.sensorAltitudeM)}   heading ${formatDegrees(v.platformHeadingDeg, 2)}`,
    `sensor azimuth ${formatDegrees(v.sensorAzimuthDeg, 2)}   elevation ${formatDegrees(v.sensorElevationDeg, 2)}   HFOV ${formatDegrees(v.sensorHorizontalFovDeg, 2)}   slant range ${formatMetres(v.slantRangeM)}`,
    `frame centre ${formatDegrees(v.frameCenterLatitudeDeg)} ${formatDegrees(v.frameCenterLongitudeDeg)}   elevation ${formatMetres(v.frameCenterElevationM)}`,
  ];
}

/** The picture of `video` with the caption under it, as a PNG. */
export async function snapshotPng(video: HTMLVideoElement, caption: string[]): Promise<Blob> {
  const width = Math.max(video.videoWidth, 640);
  const pictureHeight = video.videoHeight;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = pictureHeight + 2 * MARGIN_PX + caption.length * LINE_PX;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('the browser gave no 2D canvas');
  context.fillStyle = '#000';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(video, 0, 0, video.videoWidth, pictureHeight);
  context.fillStyle = '#fff';
  context.font = FONT;
  context.textBaseline = 'top';
  caption.forEach((line, i) => context.fillText(line, MARGIN_PX, pictureHeight + MARGIN_PX + i * LINE_PX, width - 2 * MARGIN_PX));
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob === null ? reject(new Error('the canvas gave no PNG')) : resolve(blob)), 'image/png'));
}

/** Offers `blob` as a download named `name`. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
