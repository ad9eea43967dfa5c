import '../../app/shared-chunk';
import { Redirect } from 'wouter';
import { useNamespaceKey } from '../../lib/namespace';
import { flagHrefs } from '../flags';
import { useOnboardingStore } from '../../stores/ui';
import OnboardingPage from './OnboardingPage';

/** The index of a namespace: onboarding, or the flags once onboarding was completed. */
export default function NamespaceIndex() {
  const namespaceKey = useNamespaceKey();
  const completed = useOnboardingStore((state) => state.completed);
  return completed ? <Redirect to={flagHrefs.list(namespaceKey)} replace /> : <OnboardingPage />;
}
