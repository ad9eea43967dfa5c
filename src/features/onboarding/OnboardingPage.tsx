import '../../app/shared-chunk';
import { Link } from 'wouter';
import { useNamespaceStore } from '../../stores/namespace';
import { useOnboardingStore } from '../../stores/ui';
import { namespacePath } from '../../lib/paths';
import { flagHrefs } from '../flags';
import { LINKS } from '../../lib/links';
import { SdkSnippets } from './SdkSnippets';

export default function OnboardingPage() {
  const complete = useOnboardingStore((state) => state.complete);
  const current = useNamespaceStore((state) => state.current);
  return (
    <section className="guide">
      <h1>Get started</h1>
      <p className="muted">Four steps from an empty server to a flag your application reads.</p>
      <ol className="steps">
        <li>
          <h2>Create a flag</h2>
          <p>
            A <strong>variant</strong> flag chooses among values such as <code>blue</code> or <code>green</code>; a{' '}
            <strong>boolean</strong> flag is on or off. <Link href={flagHrefs.new(current)}>Create a flag</Link>.
          </p>
        </li>
        <li>
          <h2>Target entities</h2>
          <p>
            <Link href={namespacePath(current, '/segments/new')}>Create a segment</Link> from the properties your
            application sends (plan, country, …), then give it a variant in the flag's Rules tab or a value in its
            Rollouts tab.
          </p>
        </li>
        <li>
          <h2>Try it</h2>
          <p>
            The <Link href={namespacePath(current, '/console')}>Console</Link> evaluates a flag for an entity and
            explains which rule or rollout decided.
          </p>
        </li>
        <li>
          <h2>Read it from your application</h2>
          <p>Flipt's SDKs work against this server unchanged:</p>
          <SdkSnippets namespaceKey={current} />
        </li>
      </ol>
      <p>
        Surveys: the <a href="/demo/">survey demo page</a> shows the in-app survey widget against this server.{' '}
        <a href={LINKS.documentation}>Read the documentation</a> for every concept.
      </p>
      <Link href={flagHrefs.list(current)} className="button button-primary" onClick={complete}>
        Continue to Flags
      </Link>
    </section>
  );
}
