export const PAGE_SIZE = 20;

interface PaginationProps {
  page: number;
  total: number;
  onPage(page: number): void;
}

export function Pagination({ page, total, onPage }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (total <= PAGE_SIZE) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <span>
        Showing {page * PAGE_SIZE + 1} to {Math.min(total, (page + 1) * PAGE_SIZE)} of {total} results
      </span>
      <button type="button" className="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button type="button" className="button" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
