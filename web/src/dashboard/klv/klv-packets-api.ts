/** A page of an ingest run's raw KLV packets (GET /automation/ingest-runs/{id}/klv/packets, JSON form). */
import type { ApiClient } from '../api-client.js';

/** A row of the `klv/packets` dataset. */
export interface KlvPacketRow {
  seq: number;
  offset: number;
  packetIndex: number;
  t: number | null;
  pid: number;
  klvIndex: number;
  carriage: 'sync' | 'async' | 'raw';
  keyHex: string;
  keyName: string | null;
  length: number;
  rawHex: string;
  pts90kHz: number | null;
}

export interface KlvPacketPage {
  total: number;
  rows: KlvPacketRow[];
}

export function loadKlvPackets(api: ApiClient, runId: string, offset: number, limit: number): Promise<KlvPacketPage> {
  return api.get<KlvPacketPage>(`/automation/ingest-runs/${encodeURIComponent(runId)}/klv/packets`, { offset, limit });
}
