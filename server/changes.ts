/**
 * The change feed: every committed write to a namespace's flags or segments is published here, so
 * whoever caches derived state (the evaluation snapshots) can drop it. `publish` is called by the
 * storage layer after the transaction commits; listeners run synchronously.
 * With PostgreSQL, the evaluation area relays changes between server instances (LISTEN/NOTIFY).
 */
export type ChangeListener = (namespaceKey: string) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  publish(namespaceKey: string): void {
    for (const listener of this.listeners) listener(namespaceKey);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
