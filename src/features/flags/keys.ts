export const flagKeys = {
  all: ['flags'] as const,
  namespace: (namespaceKey: string) => [...flagKeys.all, namespaceKey] as const,
  list: (namespaceKey: string) => [...flagKeys.namespace(namespaceKey), 'list'] as const,
  detail: (namespaceKey: string, flagKey: string) => [...flagKeys.namespace(namespaceKey), 'detail', flagKey] as const,
  /** Rules and rollouts of a flag live under its detail key, so deleting the flag invalidates them. */
  rules: (namespaceKey: string, flagKey: string) => [...flagKeys.detail(namespaceKey, flagKey), 'rules'] as const,
  rollouts: (namespaceKey: string, flagKey: string) => [...flagKeys.detail(namespaceKey, flagKey), 'rollouts'] as const,
};
