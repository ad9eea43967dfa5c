import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { NewEntityPage } from '../../components/NewEntityPage';
import { SegmentForm } from './SegmentForm';

export default function NewSegmentPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage noun="segment">
      <SegmentForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
