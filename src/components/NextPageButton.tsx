/** What the button needs of an infinite query. */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/** The button that loads an infinite query's next page, shown while there is one (`busyLabel` while it loads). */
export function NextPageButton({
  query,
  label,
  busyLabel = label,
}: {
  query: PagedQuery;
  label: string;
  busyLabel?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className="button"
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {query.isFetchingNextPage ? busyLabel : label}
    </button>
  );
}
