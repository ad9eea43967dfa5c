import { resolve } from 'node:path';
import * as v from 'valibot';
import { bool, defineSection, num, opt, str } from './section.js';

export interface SurveysConfig {
  /** `uploadQuotaBytes`: what one environment's uploaded files may take in all (0: no quota). */
  surveys: {
    enabled: boolean;
    seedFile?: string;
    demo: boolean;
    uploadDir: string;
    signingSecret?: string;
    uploadQuotaBytes: number;
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
  }),
  defaults: { enabled: true, demo: true, upload_dir: './data/uploads', upload_quota_mb: 1024 },
  resolve(settings): SurveysConfig {
    const surveys: SurveysConfig['surveys'] = {
      enabled: settings.enabled,
      demo: settings.demo,
      uploadDir: resolve(settings.upload_dir),
      uploadQuotaBytes: Math.round(settings.upload_quota_mb * 1024 * 1024),
    };
    if (settings.signing_secret) surveys.signingSecret = settings.signing_secret;
    if (settings.seed_file !== undefined) surveys.seedFile = resolve(settings.seed_file);
    return { surveys };
  },
});
