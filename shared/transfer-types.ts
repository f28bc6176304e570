/**
 * `svc admin export|import`: where the data is and what a move did. Shared because the CLI names
 * the store (from its flags) and the daemon's transfer code moves it, and the CLI may not import
 * daemon code outside the two commands that load it (.dependency-cruiser.cjs).
 */
export type TransferStore = { kind: 'data-folder'; dir: string } | { kind: 'postgres'; url: string };

/** What an export or an import moved, for the command's answer. */
export interface TransferSummary {
  records: number;
  companies: number;
  events: number;
  /** The store, as it may be shown (a database URL without its password). */
  store: string;
  file: string;
}
