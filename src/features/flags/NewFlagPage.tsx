import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { LINKS } from '../../lib/links';
import { NewEntityPage } from '../../components/NewEntityPage';
import { FlagForm } from './FlagForm';

export default function NewFlagPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage title="New Flag" learnMoreHref={LINKS.flagsConcept} learnMoreLabel="Learn more about flags">
      <FlagForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
