// What other features may use of namespaces; everything else in this folder is internal.
export { namespaceKeys, useNamespaces } from './api';
