export const segmentKeys = {
  all: ['segments'] as const,
  namespace: (namespaceKey: string) => [...segmentKeys.all, namespaceKey] as const,
  list: (namespaceKey: string) => [...segmentKeys.namespace(namespaceKey), 'list'] as const,
  detail: (namespaceKey: string, segmentKey: string) =>
    [...segmentKeys.namespace(namespaceKey), 'detail', segmentKey] as const,
};
