/** `svc admin export` / `svc admin import`: moving a deployment between a data folder and PostgreSQL. */
export { exportArchive } from './export-archive.js';
export { importArchive } from './import-archive.js';
export type { Store, TransferSummary } from './store-ref.js';
