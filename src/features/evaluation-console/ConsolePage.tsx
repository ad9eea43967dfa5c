import '../../app/shared-chunk';
import { useNamespaceKey } from '../../app/namespace';

/** Placeholder: the evaluation console arrives with the evaluation issue. */
export default function ConsolePage() {
  const namespaceKey = useNamespaceKey();
  return (
    <section>
      <h1>Console</h1>
      <p className="muted">The evaluation console for namespace {namespaceKey} is not available yet.</p>
    </section>
  );
}
