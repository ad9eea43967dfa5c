import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { NewEntityPage } from '../../components/NewEntityPage';
import { FlagForm } from './FlagForm';

export default function NewFlagPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage noun="flag">
      <FlagForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
