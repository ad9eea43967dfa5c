/** The files uploaded to an environment's surveys (their bytes live in surveys.upload_dir). */
import type { Database } from '../../db/index.js';
import { cuid } from '../ids.js';
import { now } from './shared.js';

export async function recordFile(
  database: Database,
  file: {
    environmentId: string;
    surveyId: string;
    fileName: string;
    fileType: string;
    size: number;
  },
): Promise<void> {
  await database.db
    .insertInto('survey_files')
    .values({
      id: cuid(),
      environment_id: file.environmentId,
      survey_id: file.surveyId,
      file_name: file.fileName,
      file_type: file.fileType,
      size: file.size,
      created_at: now(),
    })
    .onConflict((oc) => oc.columns(['environment_id', 'file_name']).doNothing())
    .execute();
}

export async function file(database: Database, environmentId: string, fileName: string) {
  return database.db
    .selectFrom('survey_files')
    .select(['file_name', 'file_type', 'size'])
    .where('environment_id', '=', environmentId)
    .where('file_name', '=', fileName)
    .executeTakeFirst();
}

/** What the environment's recorded uploads take in all, in bytes. */
export async function uploadedBytes(database: Database, environmentId: string): Promise<number> {
  const row = await database.db
    .selectFrom('survey_files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
