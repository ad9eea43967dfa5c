import { resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { gitSchema, gitStorageConfig, type GitStorageConfig } from './git.js';
import { bool, defineSection, opt, str } from './section.js';

const STORAGE_TYPES = ['database', 'local', 'git'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export interface StorageConfig {
  storage: { type: StorageType; readOnly?: boolean; localPath?: string; git?: GitStorageConfig };
}

export const storageSection = defineSection({
  key: 'storage',
  schema: v.strictObject({
    type: opt(v.picklist(STORAGE_TYPES, 'must be "database", "local" or "git"')),
    read_only: opt(bool),
    local: opt(v.strictObject({ path: opt(str) })),
    git: opt(gitSchema),
  }),
  defaults: { type: 'database' },
  resolve(settings): StorageConfig {
    const storage: StorageConfig['storage'] = { type: settings.type };
    if (settings.read_only !== undefined) storage.readOnly = settings.read_only;
    if (settings.local?.path !== undefined) storage.localPath = resolve(settings.local.path);
    if (storage.type === 'local' && !storage.localPath) {
      throw new ConfigError('storage.local.path is required when storage.type is "local" (or pass --storage-path)');
    }
    if (storage.type === 'git') storage.git = gitStorageConfig(settings.git ?? {});
    return { storage };
  },
});
