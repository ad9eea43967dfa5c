import { Component, type ReactNode } from 'react';
import { Link } from 'wouter';

export function ErrorPage({ message }: { message?: string }) {
  return (
    <section className="error-page">
      <Link href="/" aria-label="Home">
        <img src="/favicon.svg" alt="Ensign" width="48" height="48" />
      </Link>
      <h1>Error</h1>
      {message && <p>{message}</p>}
      <button type="button" className="button" onClick={() => history.back()}>
        Go Back
      </button>
    </section>
  );
}

/** Routing and rendering errors show the error page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <ErrorPage message={this.state.error.message} /> : this.props.children;
  }
}
