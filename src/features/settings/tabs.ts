import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface SettingsTab {
  label: string;
  /** The path segment after /settings; '' is the index tab. */
  path: string;
  component: LazyExoticComponent<ComponentType>;
}

/** The settings tabs; a feature adds its tab here. */
export const SETTINGS_TABS: SettingsTab[] = [
  { label: 'General', path: '', component: lazy(() => import('./PreferencesTab')) },
  // biome-ignore lint/style/noRestrictedImports: another feature's page, loaded lazily as docs/architecture.md allows
  { label: 'Namespaces', path: 'namespaces', component: lazy(() => import('../namespaces/NamespacesTab')) },
  // biome-ignore lint/style/noRestrictedImports: another feature's page, loaded lazily as docs/architecture.md allows
  { label: 'API Tokens', path: 'tokens', component: lazy(() => import('../tokens/TokensTab')) },
];
