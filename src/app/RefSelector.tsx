import './shared-chunk';
import { useGitReferences } from '../api/gitReferences';
import { useRefStore } from '../stores/ref';

/**
 * The current ref: the followed one (no `reference` parameter) or a branch or tag of the repository.
 * A server without the references endpoint (a real Flipt) gets no selector.
 */
export default function RefSelector() {
  const ref = useRefStore((state) => state.ref);
  const setRef = useRefStore((state) => state.setRef);
  const { data } = useGitReferences();
  if (!data) return null;
  const known = ref === '' || data.branches.includes(ref) || data.tags.includes(ref);
  return (
    <select className="ref-selector" aria-label="Git reference" value={ref} onChange={(e) => setRef(e.target.value)}>
      <option value="">{data.ref} (followed)</option>
      {!known && <option value={ref}>{ref}</option>}
      <optgroup label="Branches">
        {data.branches.map((branch) => (
          <option key={branch} value={branch}>
            {branch}
          </option>
        ))}
      </optgroup>
      <optgroup label="Tags">
        {data.tags.map((tag) => (
          <option key={tag} value={tag}>
            {tag}
          </option>
        ))}
      </optgroup>
    </select>
  );
}
