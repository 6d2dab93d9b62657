/** A page of an ingest run's raw KLV packets (GET /automation/ingest-runs/{id}/klv/packets, JSON form). */
import type { KlvPacketObservation } from '@klvscope/core/browser';
import type { ApiClient } from '../api-client.js';

/** A row of the `klv/packets` dataset: the observation with its sequence number, its bytes as hex. */
export type KlvPacketRow = Omit<KlvPacketObservation, 'kind' | 'raw'> & { seq: number; rawHex: string };

export interface KlvPacketPage {
  total: number;
  rows: KlvPacketRow[];
}

export function loadKlvPackets(api: ApiClient, runId: string, offset: number, limit: number): Promise<KlvPacketPage> {
  return api.get<KlvPacketPage>(`/automation/ingest-runs/${encodeURIComponent(runId)}/klv/packets`, { offset, limit });
}
