import { TableHead } from './RowActions';
/** One changed thing and how it read before and after; '' where it did not exist. */
export interface DiffRow {
  label: string;
  before: string;
  after: string;
}

/** A before/after table of changes; an empty side reads as a dash. */
export function DiffTable({ caption, rows }: { caption: string; rows: DiffRow[] }) {
  if (rows.length === 0) return <p className="muted">No visible change.</p>;
  return (
    <table className="table diff-table">
      <caption className="visually-hidden">{caption}</caption>
      <TableHead columns={['Change', 'Before', 'After']} actionsLabel={false} />
      <tbody>
        {rows.map((row, index) => (
          // A label may repeat (two rules on the same segment), so the position keys the row.
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are rebuilt whole, never reordered
          <tr key={index}>
            <th scope="row">{row.label}</th>
            <td className={row.before ? 'diff-before' : 'muted'}>{row.before || '—'}</td>
            <td className={row.after ? 'diff-after' : 'muted'}>{row.after || '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
