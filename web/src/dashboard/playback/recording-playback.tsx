/**
 * The recording beside its check: the video through the playback URL, the
 * metadata of the frame on screen, and the map of the whole flight (platform
 * and frame-centre tracks of every packet, the footprint and position of the
 * frame on screen). One time line joins them: a frame put on screen moves the
 * page's time cursor (onStreamTime), and a seek request (a selected
 * violation, in stream time) pauses the video on the frame presented then.
 * A codec the browser cannot play is played through the service's H.264
 * variant (transcoded-video.ts), which keeps the PTS: the same clocks hold.
 */
import 'leaflet/dist/leaflet.css';
import './recording-playback.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { StreamKlvMessage } from '@klvscope/core/browser';
import { KlvPanel } from '../../viewer/klv-panel.js';
import { MediaTimeMapping, wrapPts } from '../../viewer/pts-clock.js';
import { TrackMap } from '../../viewer/track-map.js';
import type { ApiClient } from '../api-client.js';
import type { CheckViewProbe } from '../check-view/check-view-probe.js';
import { ErrorNotice } from '../error-notice.js';
import { useMapTiles } from '../../shared/map-tiles.js';
import { useApiData } from '../use-api-data.js';
import { useFlightExport } from './flight-export-layer.js';
import { FlightMetadata } from './flight-metadata.js';
import { loadPlaybackSources, type PlaybackSources } from './playback-sources.js';
import { RecordingVideo, type SeekRequest } from './recording-video.js';
import { StreamClock } from './stream-clock.js';
import { useTranscodedVideo } from './transcoded-video.js';
import { untranscodedReason, videoPlayability } from './video-support.js';

export interface StreamTimeRequest {
  streamTimeS: number;
  serial: number;
}

export interface RecordingPlaybackProps {
  api: ApiClient;
  filePath: string;
  ingestRunId: string;
  /** The page's time cursor: what the panel and map show when there is no video. */
  cursorTimeS: number | null;
  seekTo: StreamTimeRequest | null;
  onStreamTime: (streamTimeS: number) => void;
  probe: CheckViewProbe;
}

export function RecordingPlayback(props: RecordingPlaybackProps) {
  const { api, filePath, ingestRunId } = props;
  const sources = useApiData(() => loadPlaybackSources(api, filePath, ingestRunId), [api, filePath, ingestRunId]);
  if (sources.state === 'loading') return <p class="panel loading">Loading the recording's metadata and video…</p>;
  if (sources.state === 'failed') return <ErrorNotice error={sources.error} what="load the recording's metadata and video" />;
  return <LoadedPlayback {...props} sources={sources.data} />;
}

interface ShownFrame {
  pts90kHz: number;
  klv: StreamKlvMessage | null;
  exact: boolean;
}

function LoadedPlayback({ api, ingestRunId, sources, cursorTimeS, seekTo, onStreamTime, probe }: RecordingPlaybackProps & { sources: PlaybackSources }) {
  const clock = useMemo(
    () => (sources.firstPcr27MHz !== null && sources.firstVideoPts90kHz !== null ? new StreamClock(sources.firstPcr27MHz, sources.firstVideoPts90kHz) : null),
    [sources],
  );
  const flight = useMemo(() => new FlightMetadata(sources.metadata, sources.carriage, clock), [sources, clock]);
  const [playerError, setPlayerError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<MediaTimeMapping | null>(null);
  // The frame callback may come before the render that the time line's state brings.
  const mappingRef = useRef<MediaTimeMapping | null>(null);
  const [frame, setFrame] = useState<ShownFrame | null>(null);
  const [seek, setSeek] = useState<SeekRequest | null>(null);
  const latestFrame = useRef<number | null>(null);

  const playability = useMemo(() => videoPlayability(sources.video), [sources]);
  const playbackUrl = 'url' in sources.playback ? sources.playback.url : null;
  const transcoded = useTranscodedVideo(playability.kind === 'transcode' && clock !== null ? playbackUrl : null);
  const videoUrl = playability.kind === 'direct' ? playbackUrl : transcoded?.state === 'ready' ? transcoded.url : null;
  const reason =
    'refused' in sources.playback
      ? sources.playback.refused
      : playability.kind === 'none'
        ? playability.reason
        : clock === null
          ? 'the recording has no PCR or no video PTS, so its frames cannot be placed in stream time.'
          : playability.kind === 'transcode' && transcoded?.state === 'failed'
            ? untranscodedReason(playability.codec, transcoded.reason)
            : null;
  const notice = reason ?? playerError;
  // A player that failed shows no frame: the panel and the map must follow the cursor then too.
  const playable = notice === null && videoUrl !== null;
  const progress = reason === null && transcoded?.state === 'waiting' ? transcoded.progress : null;
  probe.metadataPackets = flight.packets;
  probe.videoNotice = notice;
  probe.videoUrl = playable ? videoUrl : null;
  if (progress !== null && probe.transcodingProgress.at(-1) !== progress) probe.transcodingProgress.push(progress);

  const onTimeline = useCallback(
    (firstMediaTimeS: number) => {
      if (sources.firstVideoPts90kHz === null) return;
      mappingRef.current = new MediaTimeMapping(sources.firstVideoPts90kHz, firstMediaTimeS);
      setMapping(mappingRef.current);
    },
    [sources],
  );

  // The frame on screen: its PTS, its stream time (the page's cursor), its metadata packet.
  const onFrame = useCallback(
    (mediaTimeS: number) => {
      probe.framesShown++;
      const mapping = mappingRef.current;
      if (mapping === null || clock === null) return;
      const pts90kHz = mapping.ptsAt(mediaTimeS);
      const streamTimeS = clock.streamTimeAt(pts90kHz);
      const found = flight.forFrame(pts90kHz, streamTimeS);
      probe.frame = { mediaTime: mediaTimeS, pts90kHz: wrapPts(pts90kHz), streamTimeS, klvPts90kHz: found?.message.pts90kHz ?? null };
      if (latestFrame.current !== pts90kHz) {
        latestFrame.current = pts90kHz;
        setFrame({ pts90kHz: wrapPts(pts90kHz), klv: found?.message ?? null, exact: found?.exact ?? false });
        onStreamTime(streamTimeS);
      }
    },
    [clock, flight, onStreamTime],
  );

  // A violation selected: the frame presented at its stream time (once the player's time line is known).
  useEffect(() => {
    if (seekTo === null || mapping === null || clock === null) return;
    setSeek({ mediaTimeS: mapping.mediaTimeAt(clock.ptsAt(seekTo.streamTimeS)), serial: seekTo.serial });
  }, [seekTo, mapping, clock]);

  // Without a picture, the panel and the map follow the time cursor.
  const cursorKlv = useMemo(() => (playable || cursorTimeS === null ? null : flight.atStreamTime(cursorTimeS)), [playable, cursorTimeS, flight]);
  const shown = playable ? (frame?.klv ?? null) : cursorKlv;
  probe.panelKlv = shown === null ? null : { pid: shown.pid, streamTimeS: shown.streamTime, pts90kHz: shown.pts90kHz, sensorLatitudeDeg: shown.values.sensorLatitudeDeg };

  const mapTiles = useMapTiles();
  const [exportShown, setExportShown] = useState(false);
  const flightExport = useFlightExport(api, ingestRunId, exportShown);
  const exportLayer = flightExport.state === 'drawn' ? flightExport : null;
  probe.flightExport = { state: flightExport.state, footprints: exportLayer?.footprints ?? 0, frameCentreLines: exportLayer?.frameCentreLines ?? 0 };

  const onDrawn = useCallback((platformPoints: number, frameCentrePoints: number) => {
    probe.trackPointCount = platformPoints;
    probe.frameCentrePointCount = frameCentrePoints;
  }, []);

  return (
    <div class="recording-playback">
      <section class="panel playback-video" data-playable={playable ? 'true' : 'false'}>
        <h2>Video</h2>
        {videoUrl !== null && reason === null && <RecordingVideo url={videoUrl} seek={seek} onTimeline={onTimeline} onFrame={onFrame} onError={setPlayerError} />}
        {progress !== null && playability.kind === 'transcode' && (
          <p class="video-transcoding" role="status" data-field="transcoding">
            Transcoding the video to H.264 for this browser ({playability.codec})… {Math.floor(progress * 100)} %
          </p>
        )}
        {notice !== null && (
          <p class="video-notice" role="status">
            No picture: {notice}
          </p>
        )}
        {frame !== null && playable && (
          <p class="frame-time" data-field="frame-stream-time">
            Frame on screen: stream time {(clock?.streamTimeAt(clock.unwrap(frame.pts90kHz)) ?? 0).toFixed(3)} s, PTS {frame.pts90kHz}
          </p>
        )}
      </section>
      <KlvPanel klv={shown} exact={playable ? (frame?.exact ?? false) : false} framePts90kHz={playable ? (frame?.pts90kHz ?? null) : null} />
      <section class="panel flight-map">
        <h2>
          Flight <span class="count">({flight.packets} metadata packets)</span>
        </h2>
        <label class="flight-export-toggle">
          <input type="checkbox" name="flight-export" checked={exportShown} onChange={(event) => setExportShown(event.currentTarget.checked)} /> GIS export (GeoJSON): sensor
          footprints and frame-centre track
          {flightExport.state === 'loading' && <span class="count"> loading…</span>}
          {exportLayer !== null && (
            <span class="count" data-field="flight-export-count">
              {' '}
              {exportLayer.footprints} footprints
            </span>
          )}
        </label>
        {flightExport.state === 'failed' && <ErrorNotice error={flightExport.error} what="load the run's GeoJSON track" />}
        <TrackMap
          track={flight.track}
          trackVersion={flight.packets}
          current={shown?.values ?? null}
          tileUrl={mapTiles?.url ?? null}
          tileMaxNativeZoom={mapTiles?.maxNativeZoom}
          onDrawn={onDrawn}
          fitTrack
          overlay={exportLayer?.layer ?? null}
        />
      </section>
    </div>
  );
}
