import '../../app/shared-chunk';
import { Link } from 'wouter';
import { useNamespaceStore } from '../../stores/namespace';
import { useOnboardingStore } from '../../stores/ui';
import { namespacePath } from '../../lib/paths';
import { LINKS } from '../../lib/links';

export default function OnboardingPage() {
  const complete = useOnboardingStore((state) => state.complete);
  const current = useNamespaceStore((state) => state.current);
  return (
    <section>
      <h1>Get started</h1>
      <ul>
        <li>
          <a href={LINKS.documentation}>Read the documentation</a>
        </li>
        <li>
          <Link href={namespacePath(current, '/flags/new')}>Create a flag</Link>
        </li>
      </ul>
      <Link href={namespacePath(current, '/flags')} className="button button-primary" onClick={complete}>
        Continue to Flags
      </Link>
    </section>
  );
}
