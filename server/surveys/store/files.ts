/** The files uploaded to an environment's surveys (their bytes live in surveys.upload_dir). */
import type { Executor } from '../../db/executor.js';
import { cuid } from '../ids.js';
import { now } from './shared.js';

export interface FileInput {
  environmentId: string;
  surveyId: string;
  fileName: string;
  fileType: string;
  size: number;
}

export async function recordFile(executor: Executor, file: FileInput): Promise<void> {
  await executor.db
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

export async function file(executor: Executor, environmentId: string, fileName: string) {
  return executor.db
    .selectFrom('survey_files')
    .select(['file_name', 'file_type', 'size'])
    .where('environment_id', '=', environmentId)
    .where('file_name', '=', fileName)
    .executeTakeFirst();
}

/** What the environment's recorded uploads take in all, in bytes. */
export async function uploadedBytes(executor: Executor, environmentId: string): Promise<number> {
  const row = await executor.db
    .selectFrom('survey_files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
