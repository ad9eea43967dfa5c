import './shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { INTERNAL, request } from '../api/client';
import { useRefStore } from '../stores/ref';

/** Ensign's `GET /internal/v1/git/references` (docs/compatibility.md). */
interface GitReferences {
  ref: string;
  branches: string[];
  tags: string[];
}

/**
 * The current ref: the followed one (no `reference` parameter) or a branch or tag of the repository.
 * A server without the references endpoint (a real Flipt) gets no selector.
 */
export default function RefSelector() {
  const ref = useRefStore((state) => state.ref);
  const setRef = useRefStore((state) => state.setRef);
  const { data } = useQuery({
    queryKey: ['git', 'references'],
    queryFn: () => request<GitReferences>('GET', `${INTERNAL}/git/references`),
    staleTime: 30_000,
  });
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
