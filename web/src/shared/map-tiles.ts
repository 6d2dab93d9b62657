/**
 * The map imagery the service was started with (`--tiles`): its TileJSON at
 * GET /tiles (public, beside the pages' files), read once per page load. A
 * service without tiles answers 404: the maps then show the bundled coasts.
 * The dashboard takes the tiles from it; the viewer, whose hello names the
 * tile URL, takes the deepest zoom.
 */
import { useEffect, useState } from 'preact/hooks';

export interface MapTileSource {
  /** The URL template, `/tiles/{z}/{x}/{y}` for local tiles. */
  url: string;
  /** The deepest zoom the tiles have: Leaflet enlarges those beyond it. */
  maxNativeZoom: number;
}

let asked: Promise<MapTileSource | null> | undefined;

async function askService(): Promise<MapTileSource | null> {
  try {
    const response = await fetch('/tiles', { headers: { accept: 'application/json' } });
    if (!response.ok) return null;
    const doc = (await response.json()) as { tiles?: unknown; maxzoom?: unknown };
    const url = Array.isArray(doc.tiles) && typeof doc.tiles[0] === 'string' ? doc.tiles[0] : null;
    return url === null ? null : { url, maxNativeZoom: typeof doc.maxzoom === 'number' ? doc.maxzoom : 19 };
  } catch {
    // No answer: a map without imagery is still a map.
    return null;
  }
}

/** The tiles; null when there are none; undefined while the service is being asked. */
export function useMapTiles(): MapTileSource | null | undefined {
  const [tiles, setTiles] = useState<MapTileSource | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    asked ??= askService();
    void asked.then((source) => current && setTiles(source));
    return () => {
      current = false;
    };
  }, []);
  return tiles;
}
