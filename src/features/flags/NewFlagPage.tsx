import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { NewEntityPage } from '../../components/NewEntityPage';
import { FlagForm } from './FlagForm';

export default function NewFlagPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage
      title="New Flag"
      learnMoreHref="https://docs.flipt.io/concepts#flags"
      learnMoreLabel="Learn more about flags"
    >
      <FlagForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
