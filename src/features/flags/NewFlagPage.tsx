import '../../app/shared-chunk';
import { useNamespaceKey } from '../../app/namespace';
import { LINKS } from '../../app/links';
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
