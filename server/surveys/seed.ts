import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as v from 'valibot';
import { ConfigError } from '../config/index.js';
import { actionClassInputSchema, parseSurveyInput, productSettingsSchema } from './documents.js';
import { SurveyApiError } from './errors.js';
import type { SurveyStore } from './store/index.js';
import { cuidString } from './validation.js';
import { DEFAULT_NAMESPACE } from '../../domain/flipt/types.js';
import { KEY_PATTERN } from '../../domain/flipt/keys.js';

const environmentSeed = v.strictObject({
  id: cuidString,
  type: v.optional(v.picklist(['development', 'production'], 'must be development or production'), 'production'),
  /** The namespace whose Surveys page shows the environment. */
  namespace: v.optional(v.pipe(v.string(), v.regex(KEY_PATTERN, 'must be a namespace key')), DEFAULT_NAMESPACE),
  product: v.optional(
    v.object({
      id: v.optional(cuidString),
      name: v.optional(v.string(), 'My product'),
      ...productSettingsSchema.entries,
    }),
    {},
  ),
  apiKeys: v.optional(v.array(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))), []),
  actionClasses: v.optional(v.array(v.unknown()), []),
  surveys: v.optional(v.array(v.looseObject({ id: v.optional(cuidString) })), []),
});

/** The seed file: environments, each with its product, API keys, action classes and surveys. */
export const seedSchema = v.strictObject({ environments: v.array(environmentSeed) });
export type SeedInput = v.InferInput<typeof seedSchema>;

/**
 * Creates or updates everything the seed describes, so running it at every start-up is harmless: products,
 * environments and surveys keep the ids the seed gives (surveys without an id are matched by name),
 * action classes are matched by name. Throws a ConfigError naming the first bad entry.
 */
export async function applySeed(store: SurveyStore, input: unknown, source: string): Promise<void> {
  const result = v.safeParse(seedSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    throw new ConfigError(
      `${source}: ${(issue.path ?? []).map((item) => String(item.key)).join('.') || '(root)'} ${issue.message}`,
    );
  }
  for (const [index, environment] of result.output.environments.entries()) {
    const at = `${source}: environments.${index}`;
    const { id: productId, name: productName, ...settings } = environment.product;
    await store.upsertEnvironment({
      productId: productId ?? `${environment.id}p`,
      productName,
      settings,
      environmentId: environment.id,
      type: environment.type,
      namespaceKey: environment.namespace,
    });
    for (const key of environment.apiKeys) await store.addApiKey(environment.id, key, 'seed');
    for (const [i, raw] of environment.actionClasses.entries()) {
      await letRequestsIn();
      const actionClass = seedEntry(`${at}.actionClasses.${i}`, () => v.parse(actionClassInputSchema, raw));
      await store.saveActionClass(environment.id, actionClass);
    }
    const existing = await store.surveys(environment.id);
    for (const [i, raw] of environment.surveys.entries()) {
      await letRequestsIn();
      const { name, document } = seedEntry(`${at}.surveys.${i}`, () => parseSurveyInput(raw));
      const id = raw.id ?? existing.find((survey) => survey.name === name)?.id;
      await store.saveSurvey(environment.id, name, document, id);
    }
  }
}

/**
 * A seed may be applied while the server listens (the demo environment is). libSQL's calls are
 * synchronous, so without a pause between entries every request would wait for the whole seed.
 */
const letRequestsIn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function applySeedFile(store: SurveyStore, path: string): Promise<void> {
  let input: unknown;
  try {
    input = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read surveys file ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  await applySeed(store, input, path);
}

function seedEntry<T>(at: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SurveyApiError) {
      const [path, message] = Object.entries(error.details)[0] ?? ['', error.message];
      throw new ConfigError(`${at}${path && path !== 'body' ? `.${path}` : ''} ${message}`);
    }
    if (error instanceof v.ValiError) {
      const issue = error.issues[0];
      throw new ConfigError(
        `${at}.${(issue.path ?? []).map((item: { key: unknown }) => String(item.key)).join('.')} ${issue.message}`,
      );
    }
    throw error;
  }
}
