import { createContext, useContext } from 'react';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types';

/** The namespace of the page being shown: the URL's, else the stored current one. */
export const NamespaceContext = createContext<string>(DEFAULT_NAMESPACE);

export function useNamespaceKey(): string {
  return useContext(NamespaceContext);
}
