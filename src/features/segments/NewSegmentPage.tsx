import '../../app/shared-chunk';
import { useNamespaceKey } from '../../app/namespace';
import { LINKS } from '../../app/links';
import { SegmentForm } from './SegmentForm';

export default function NewSegmentPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <section>
      <header className="page-header">
        <h1>New Segment</h1>
        <a href={LINKS.segmentsConcept} target="_blank" rel="noreferrer">
          Learn more about segments
        </a>
      </header>
      <SegmentForm namespaceKey={namespaceKey} />
    </section>
  );
}
