import '../../app/shared-chunk';
import { useNamespaceKey } from '../../app/namespace';
import { LINKS } from '../../app/links';
import { FlagForm } from './FlagForm';

export default function NewFlagPage() {
  const namespaceKey = useNamespaceKey();
  return (
    <section>
      <header className="page-header">
        <h1>New Flag</h1>
        <a href={LINKS.flagsConcept} target="_blank" rel="noreferrer">
          Learn more about flags
        </a>
      </header>
      <FlagForm namespaceKey={namespaceKey} />
    </section>
  );
}
