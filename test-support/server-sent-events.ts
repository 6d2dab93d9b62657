/** Reads a server-sent events stream over fetch (headers allowed, unlike EventSource): each event's name and data, and the bytes of the body as they came. */
export interface ServerSentEvent {
  event: string;
  data: string;
  /** Body bytes received up to and including this event. */
  bytesSoFar: number;
}

export async function* readServerSentEvents(url: string, headers: Record<string, string>, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
  const response = await fetch(url, { headers, signal });
  if (response.body === null) throw new Error(`no body from ${url} (${response.status})`);
  const decoder = new TextDecoder();
  let buffered = '';
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      bytes += (chunk as Uint8Array).length;
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const field = (name: string): string => block.split('\n').filter((line) => line.startsWith(`${name}: `)).map((line) => line.slice(name.length + 2)).join('\n');
        yield { event: field('event') || 'message', data: field('data'), bytesSoFar: bytes - new TextEncoder().encode(buffered).length };
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
