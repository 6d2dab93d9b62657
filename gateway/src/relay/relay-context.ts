/** What the relay's route files are built from (the composition root, start-relay-server.ts, makes it). */
import type { LicenceState } from '../licence/index.js';
import type { InspectionRoute } from '../http/service-route.js';
import type { RelayService } from './relay-service.js';
import type { StreamDetector } from './stream-detector.js';

export interface RelayContext {
  service: RelayService;
  detector: StreamDetector;
  licence: LicenceState;
}

export type RelayRouteModule = (context: RelayContext) => readonly InspectionRoute[];
