import { useRefStore } from '../stores/ref';

/**
 * The git ref the console reads at ('' for the followed one): the first segment of the query keys of
 * data read at a ref (flags, segments, ...). (Not in stores/ref.ts, which the first page loads.)
 */
export const useCurrentRef = () => useRefStore((state) => state.ref);
