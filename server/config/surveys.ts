import { resolve } from 'node:path';
import * as v from 'valibot';
import { bool, defineSection, num, opt, str } from './section.js';

export interface SurveysConfig {
  /** `uploadQuotaBytes`: what one environment's uploaded files may take in all (0: no quota). */
  surveys: {
    enabled: boolean;
    seedFile?: string;
    /** The demo environment and page; unset, on unless authentication is required (`demoEnabled`). */
    demo?: boolean;
    uploadDir: string;
    signingSecret?: string;
    uploadQuotaBytes: number;
    /** Webhooks may post to loopback, private, link-local and other internal addresses (`webhooks_allow_internal_addresses`). */
    webhooksAllowInternalAddresses: boolean;
    /** People one environment may hold; a visitor beyond it is refused (403). */
    maxPeople: number;
  };
}

/** Ensign's own section: the survey widget's server. */
export const surveysSection = defineSection({
  key: 'surveys',
  schema: v.strictObject({
    enabled: opt(bool),
    seed_file: opt(str),
    demo: opt(bool),
    upload_dir: opt(str),
    signing_secret: opt(str),
    upload_quota_mb: opt(v.pipe(num, v.minValue(0, 'must be 0 or more'))),
    webhooks_allow_internal_addresses: opt(bool),
    max_people: opt(v.pipe(num, v.integer('must be a whole number'), v.minValue(1, 'must be 1 or more'))),
  }),
  defaults: {
    enabled: true,
    upload_dir: './data/uploads',
    upload_quota_mb: 1024,
    webhooks_allow_internal_addresses: false,
    max_people: 1_000_000,
  },
  resolve(settings): SurveysConfig {
    const surveys: SurveysConfig['surveys'] = {
      enabled: settings.enabled,
      uploadDir: resolve(settings.upload_dir),
      uploadQuotaBytes: Math.round(settings.upload_quota_mb * 1024 * 1024),
      webhooksAllowInternalAddresses: settings.webhooks_allow_internal_addresses,
      maxPeople: settings.max_people,
    };
    if (settings.demo !== undefined) surveys.demo = settings.demo;
    if (settings.signing_secret) surveys.signingSecret = settings.signing_secret;
    if (settings.seed_file !== undefined) surveys.seedFile = resolve(settings.seed_file);
    return { surveys };
  },
});

/**
 * Whether the demo environment (with its well-known management key) and page are served: as
 * `surveys.demo` says, else only on a server that does not require authentication.
 */
export function demoEnabled(config: SurveysConfig & { authentication: { required?: boolean } }): boolean {
  return config.surveys.enabled && (config.surveys.demo ?? config.authentication.required !== true);
}
