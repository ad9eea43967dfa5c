// Whether the operator may change flags, segments and the rest of the storage: not when it is read-only
// (git, local, object, OCI). A component asks `useWritable` itself rather than receive a `readOnly` prop.
// (A module of its own rather than part of meta.ts, which the first page loads: only pages that write need it.)
import { useConfig } from './meta';

const READ_ONLY_TITLE = 'Not allowed in Read-Only mode';

/** Whether the controls that change the storage work, and if not, why (their tooltip). */
export interface Writable {
  disabled: boolean;
  reason: string | undefined;
}

export function useWritable(): Writable {
  const { readOnly } = useConfig().storage;
  return { disabled: readOnly, reason: readOnly ? READ_ONLY_TITLE : undefined };
}
