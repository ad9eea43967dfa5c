import { namespacePath } from '../../lib/paths';
import { FLAG_ROUTES } from './routes';

/** Links to the flag pages, built from their route patterns. */
export const flagHrefs = {
  list: (namespaceKey: string) => namespacePath(namespaceKey, FLAG_ROUTES.list),
  new: (namespaceKey: string) => namespacePath(namespaceKey, FLAG_ROUTES.new),
  /** A flag's page, at its index tab (the other tabs are below it: FLAG_TABS' paths). */
  flag: (namespaceKey: string, flagKey: string) =>
    namespacePath(namespaceKey, `${FLAG_ROUTES.list}/${encodeURIComponent(flagKey)}`),
};
