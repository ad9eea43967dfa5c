import { useQuery } from '@tanstack/react-query';
import { META, request } from './client';

/** GET meta/info; absent fields take Flipt's defaults. */
export interface Info {
  version: string;
  latestVersion: string;
  latestVersionURL: string;
  commit: string;
  buildDate: string;
  goVersion: string;
  updateAvailable: boolean;
  isRelease: boolean;
}

export type StorageType = 'database' | 'git' | 'local' | 'object' | 'oci';

export interface Config {
  storage: { type: StorageType; readOnly: boolean; git?: { ref?: string; repository?: string } };
  ui: {
    defaultTheme: string;
    topbar: { color: string; label: string };
    banner?: { text: string; link?: string; linkText?: string };
    /** Ensign: the survey environment the console runs the widget for (off when absent). */
    surveyEnvironment?: string;
  };
  analyticsEnabled: boolean;
}

export const DEFAULT_INFO: Info = {
  version: '0.0.0',
  latestVersion: '0.0.0',
  latestVersionURL: '',
  commit: '',
  buildDate: '',
  goVersion: '',
  updateAvailable: false,
  isRelease: false,
};

export const DEFAULT_CONFIG: Config = {
  storage: { type: 'database', readOnly: false },
  ui: { defaultTheme: 'system', topbar: { color: '', label: '' } },
  analyticsEnabled: false,
};

interface RawConfig {
  storage?: { type?: StorageType; readOnly?: boolean; git?: { ref?: string; repository?: string } };
  ui?: Partial<Config['ui']>;
  analytics?: { storage?: { clickhouse?: { enabled?: boolean } } };
}

/** If storage.readOnly is missing, the console is read-only when a storage type other than database is given. */
export function toConfig(raw: RawConfig): Config {
  const type = raw.storage?.type ?? 'database';
  return {
    storage: {
      type,
      readOnly: raw.storage?.readOnly ?? (raw.storage?.type !== undefined && type !== 'database'),
      git: raw.storage?.git,
    },
    ui: {
      defaultTheme: raw.ui?.defaultTheme ?? 'system',
      topbar: { color: raw.ui?.topbar?.color ?? '', label: raw.ui?.topbar?.label ?? '' },
      banner: raw.ui?.banner?.text ? raw.ui.banner : undefined,
      surveyEnvironment: raw.ui?.surveyEnvironment || undefined,
    },
    analyticsEnabled: raw.analytics?.storage?.clickhouse?.enabled ?? false,
  };
}

export const metaKeys = {
  info: ['meta', 'info'] as const,
  config: ['meta', 'config'] as const,
};

export function useInfo(): Info {
  const query = useQuery({
    queryKey: metaKeys.info,
    queryFn: async () => ({
      ...DEFAULT_INFO,
      ...(await request<Partial<Info>>('GET', `${META}/info`, undefined, { meta: true })),
    }),
    staleTime: Infinity,
  });
  return query.data ?? DEFAULT_INFO;
}

export function useConfigQuery() {
  return useQuery({
    queryKey: metaKeys.config,
    queryFn: async () => toConfig(await request<RawConfig>('GET', `${META}/config`, undefined, { meta: true })),
    staleTime: Infinity,
  });
}

export function useConfig(): Config {
  return useConfigQuery().data ?? DEFAULT_CONFIG;
}
