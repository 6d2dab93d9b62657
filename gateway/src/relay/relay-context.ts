/** What the relay's route files are built from (the composition root, start-relay-server.ts, makes it). */
import type { ApiKey } from '../http/api-key.js';
import type { LicenceState } from '../licence/index.js';
import type { InspectionRoute } from '../http/service-route.js';
import type { RelayService } from './relay-service.js';
import type { StreamDetector } from './stream-detector.js';

export interface RelayContext {
  service: RelayService;
  detector: StreamDetector;
  licence: LicenceState;
  /** Where the key comes from, for GET /api/auth/status. */
  apiKey: ApiKey;
}

export type RelayRouteModule = (context: RelayContext) => readonly InspectionRoute[];
