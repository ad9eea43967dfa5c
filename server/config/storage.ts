import { resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError } from './errors.js';
import { gitSchema, gitStorageConfig, type GitStorageConfig } from './git.js';
import { bool, defineSection, opt, pick, str } from './section.js';

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
  resolve(file, { flags, env }): StorageConfig {
    const storage: StorageConfig['storage'] = { type: 'database' };
    const type = pick(flags.storage, env.ENSIGN_STORAGE_TYPE, file.type);
    if (type !== undefined) {
      if (!(STORAGE_TYPES as readonly string[]).includes(type)) {
        throw new ConfigError(`storage type must be "database", "local" or "git" (got "${type}")`);
      }
      storage.type = type as StorageType;
    }
    if (file.read_only !== undefined) storage.readOnly = file.read_only;
    const localPath = pick(flags.storagePath, env.ENSIGN_STORAGE_PATH, file.local?.path);
    if (localPath !== undefined) storage.localPath = resolve(localPath);
    if (storage.type === 'local' && !storage.localPath) {
      throw new ConfigError('storage.local.path is required when storage.type is "local" (or pass --storage-path)');
    }
    if (storage.type === 'git') storage.git = gitStorageConfig(file.git ?? {});
    return { storage };
  },
});
