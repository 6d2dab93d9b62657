/**
 * A UDP URL that wraps only between its parts (after `?` and `&`), never
 * inside `host:port`: a narrow window breaks `udp://239.1.2.3:5000?ttl=8`
 * before `ttl`, not in the middle of the port.
 */
export function UdpUrlText({ url }: { url: string }) {
  const parts = url.split(/(?<=[?&])/);
  return (
    <span class="udp-url">
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && <wbr />}
          <span class="nowrap">{part}</span>
        </span>
      ))}
    </span>
  );
}
