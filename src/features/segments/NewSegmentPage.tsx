import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { NewEntityPage } from '../../components/NewEntityPage';
import { SegmentForm } from './SegmentForm';

export default function NewSegmentPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage
      title="New Segment"
      learnMoreHref="https://docs.flipt.io/concepts#segments"
      learnMoreLabel="Learn more about segments"
    >
      <SegmentForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
