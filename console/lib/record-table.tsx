import type { ReactNode } from 'react';
import { ErrorText } from './ui.js';

/** One column: its header and what each row shows in it. `false` leaves a column out (e.g. only on schedules). */
export type Column<T> = { head: ReactNode; cell: (row: T) => ReactNode } | false;

/**
 * The list every console page shows: the load error, then a table of the rows (one per id), or the
 * `empty` sentence once loaded with no rows. Without `empty`, a loaded empty list still shows its table.
 * `actions` fills a last column with a row's buttons; its header is read out to screen readers only.
 * On a phone the rows become stacked cards (styles.css): each cell carries its column's name, shown
 * before the value, so nothing has to scroll sideways and the actions stay on screen.
 */
export function RecordTable<T extends { id: string }>(props: {
  error: string | null;
  rows: T[] | undefined;
  columns: Column<T>[];
  actions?: (row: T) => ReactNode;
  empty?: ReactNode;
}) {
  const actions: Column<T> = props.actions
    ? { head: <span className="sr-only">Actions</span>, cell: props.actions }
    : false;
  const columns = [...props.columns, actions].filter((c): c is Exclude<Column<T>, false> => c !== false);
  const { rows, empty } = props;
  const table =
    rows && (rows.length || empty === undefined) ? (
      <table className="records">
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed; position is their identity
              <th key={i} scope="col">
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed; position is their identity
                <td key={i} data-label={typeof c.head === 'string' ? c.head : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    ) : rows ? (
      <p>{empty}</p>
    ) : null;
  return (
    <>
      <ErrorText error={props.error} />
      {table}
    </>
  );
}
