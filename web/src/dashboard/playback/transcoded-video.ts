/**
 * The H.264 variant of a recording (docs/rest.md, `GET
 * /playback/{token}?video=h264`): asked for with a one-byte Range request,
 * which answers 202 with the progress while ffmpeg makes it (asked again
 * after its Retry-After), 206 once it is ready (then mpegts.js fetches the
 * URL itself), or an error whose message says why (no ffmpeg, ffmpeg failed).
 * The token in the URL is the credential: no key is sent.
 */
import { useEffect, useState } from 'preact/hooks';

export type TranscodedVideo = { state: 'waiting'; progress: number } | { state: 'ready'; url: string } | { state: 'failed'; reason: string };

const DEFAULT_RETRY_MS = 1_000;

/** The variant's state, polled while it is made; null `playbackUrl` asks for nothing. */
export function useTranscodedVideo(playbackUrl: string | null): TranscodedVideo | null {
  const [state, setState] = useState<TranscodedVideo | null>(null);
  useEffect(() => {
    if (playbackUrl === null) return;
    const url = `${playbackUrl}?video=h264`;
    const aborter = new AbortController();
    let timer = 0;
    const ask = async (): Promise<void> => {
      try {
        const response = await fetch(url, { headers: { range: 'bytes=0-0' }, signal: aborter.signal, cache: 'no-store' });
        if (response.status === 202) {
          const body = (await response.json()) as { progress: number };
          setState({ state: 'waiting', progress: body.progress });
          const retryS = Number(response.headers.get('retry-after'));
          timer = window.setTimeout(() => void ask(), retryS > 0 ? retryS * 1000 : DEFAULT_RETRY_MS);
          return;
        }
        if (response.ok) {
          await response.body?.cancel();
          setState({ state: 'ready', url });
          return;
        }
        const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
        setState({ state: 'failed', reason: body?.error ? `${body.error.message} (${body.error.code})` : `HTTP ${response.status}` });
      } catch (error) {
        if (!aborter.signal.aborted) setState({ state: 'failed', reason: error instanceof Error ? error.message : String(error) });
      }
    };
    setState({ state: 'waiting', progress: 0 });
    void ask();
    return () => {
      aborter.abort();
      window.clearTimeout(timer);
    };
  }, [playbackUrl]);
  return playbackUrl === null ? null : state;
}
