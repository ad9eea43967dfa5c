import '../../app/shared-chunk';
import { useNamespaceKey } from '../../lib/namespace';
import { LINKS } from '../../lib/links';
import { NewEntityPage } from '../../components/NewEntityPage';
import { SegmentForm } from './SegmentForm';

export default function NewSegmentPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <NewEntityPage title="New Segment" learnMoreHref={LINKS.segmentsConcept} learnMoreLabel="Learn more about segments">
      <SegmentForm namespaceKey={namespaceKey} />
    </NewEntityPage>
  );
}
