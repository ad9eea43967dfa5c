/** Placeholder: API tokens arrive with the authentication issue. */
export default function TokensTab() {
  return (
    <section aria-label="API Tokens">
      <h2>API Tokens</h2>
      <p className="muted">API tokens are not available yet.</p>
    </section>
  );
}
