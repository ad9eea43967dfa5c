import { resolve } from 'node:path';
import * as v from 'valibot';
import { bool, defineSection, num, opt, pick, str } from './section.js';

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
  resolve(file, { flags, env }): SurveysConfig {
    const surveys: SurveysConfig['surveys'] = {
      enabled: file.enabled ?? true,
      demo: file.demo ?? true,
      uploadDir: file.upload_dir ? resolve(file.upload_dir) : './data/uploads',
      uploadQuotaBytes:
        file.upload_quota_mb === undefined ? 1024 * 1024 * 1024 : Math.round(file.upload_quota_mb * 1024 * 1024),
    };
    if (file.signing_secret) surveys.signingSecret = file.signing_secret;
    const seedFile = pick(flags.surveys, env.ENSIGN_SURVEYS_FILE, file.seed_file);
    if (seedFile !== undefined) surveys.seedFile = resolve(seedFile);
    return { surveys };
  },
});
