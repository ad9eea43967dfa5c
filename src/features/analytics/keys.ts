export const analyticsKeys = {
  all: ['analytics'] as const,
  flag: (namespaceKey: string, flagKey: string) => [...analyticsKeys.all, namespaceKey, flagKey] as const,
  series: (namespaceKey: string, flagKey: string, minutes: number) =>
    [...analyticsKeys.flag(namespaceKey, flagKey), minutes] as const,
};
