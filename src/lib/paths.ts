/** Console URLs of namespaced pages: /namespaces/{key}/... */
export const NAMESPACE_PREFIX = '/namespaces/';

/** The namespaced sections the namespace switcher is enabled on. */
const NAMESPACED_SECTION = /^(?:\/namespaces\/[^/]+)?\/(flags|segments|console|surveys)(?:\/|$)/;

export function namespacedSection(location: string): string | undefined {
  return NAMESPACED_SECTION.exec(location)?.[1];
}

export function namespacePath(namespaceKey: string, path = ''): string {
  return `${NAMESPACE_PREFIX}${encodeURIComponent(namespaceKey)}${path}`;
}
