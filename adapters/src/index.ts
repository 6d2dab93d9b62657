/** @klvscope/adapters: byte sources and sinks that touch the OS. */
export { AdapterError, type AdapterErrorCode } from './adapter-error.js';
export { fileSize, readFileChunks, readFileHead, type ReadFileChunksOptions } from './file.js';
export type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceEventKind, LiveSourceStats } from './live-source.js';
export { openLiveSource } from './open-live-source.js';
export { isSerialSourceUrl } from './serial-source-url.js';
export { epochNow } from './epoch-clock.js';
export { openUdpSource, type UdpSource, type UdpSourceOptions } from './udp.js';
export { wrapRtp, type RtpHeaderFields } from './rtp.js';
export { MAX_PACKETS_PER_DATAGRAM, replayFile, type PacketInput, type ReplayOptions, type ReplayProgress, type ReplayStats } from './replay.js';
export { openFileSource, openPacedTsSource, type PacedTsSourceOptions } from './paced-ts-source.js';
export { TsRecorder, type TsRecorderOptions, type TsRecorderStats } from './recorder.js';
export { recordingFileName, type RecordingFileNameParts } from './recording-file-name.js';
export { FFMPEG_ENV, findFfmpeg } from './find-ffmpeg.js';
export { Transcoder, transcoderArgs, type TranscoderOptions, type TranscoderStats } from './transcoder.js';
export { openCaptureSource, type CaptureSourceOptions } from './capture-source.js';
export type { H264EncoderOptions } from './h264-encoder-args.js';
