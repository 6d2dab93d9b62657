/** The PostgreSQL backends of a fleet (DESIGN.md "The fleet"): the catalog, its migrations and its connection. */
export { connectPostgresCatalog, postgresCatalogOperations } from './postgres-catalog.js';
export { PostgresConnection, describeUrl, type PostgresConnectionOptions, type SqlRunner } from './postgres-connection.js';
export { migratePostgres, postgresSchemaVersion, POSTGRES_CATALOG_MIGRATIONS, type PostgresMigration } from './postgres-migrations.js';
export { catalogError, isCatalogUnavailable } from './postgres-unavailable.js';
export { InspectionJobQueue, INSPECTION_QUEUE, type InspectionJob, type InspectionJobData, type JobQueueOptions, type QueueCounts, type QueueState, type FailedJob } from './postgres-job-queue.js';
export { putRunFile, getRunFile, listRunFiles, deleteRunFiles, sweepOrphanedRunFiles, runFileBytes, type RunFile } from './postgres-run-parts.js';
export { registerWorker, beatWorker, stopWorker, listWorkers, setRunWorker, runWorker, workersByHash, type FleetWorkerRow, type WorkerBeat } from './postgres-fleet-workers.js';
export { PostgresListener, type PostgresListenerOptions } from './postgres-listener.js';
export {
  PROBE_EVENTS_CHANNEL,
  PROBE_COMMANDS_CHANNEL,
  PROBE_COMMAND_DONE_CHANNEL,
  claimProbeName,
  beatProbe,
  stopProbe,
  listProbes,
  serverNowMs,
  listProbeSessions,
  getProbeSession,
  writeProbeBatch,
  readProbeEvents,
  countProbeFindings,
  latestProbeEventIds,
  recentProbeEvents,
  queueProbeCommand,
  claimProbeCommands,
  finishProbeCommand,
  getProbeCommand,
  type ProbeRow,
  type ProbeSessionRow,
  type ProbeEventKind,
  type ProbeEventRow,
  type StoredProbeEvent,
  type ProbeBatch,
  type ProbeEventQuery,
  type ProbeCommandRow,
} from './postgres-probes.js';
