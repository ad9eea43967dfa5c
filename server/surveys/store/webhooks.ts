/** Webhooks (Formbricks 1.6's, with a signing secret) and their durable delivery queue. */
import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/executor.js';
import { cuid } from '../ids.js';
import { now } from './shared.js';

export const WEBHOOK_TRIGGERS = ['responseCreated', 'responseUpdated', 'responseFinished'] as const;
export type WebhookTrigger = (typeof WEBHOOK_TRIGGERS)[number];

export interface WebhookRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  environmentId: string;
  name: string | null;
  url: string;
  source: 'user' | 'api';
  triggers: WebhookTrigger[];
  /** Empty: every survey of the environment. */
  surveyIds: string[];
  /** `whsec_` and the base64 key the signatures are made with (Standard Webhooks). */
  secret: string;
}

export interface WebhookInput {
  name?: string | null;
  url: string;
  source?: 'user' | 'api';
  triggers: WebhookTrigger[];
  surveyIds?: string[];
}

export async function webhooks(executor: Executor, environmentId: string): Promise<WebhookRecord[]> {
  const rows = await executor.db
    .selectFrom('survey_webhooks')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(webhookFromRow);
}

export async function webhook(executor: Executor, id: string): Promise<WebhookRecord | undefined> {
  const row = await executor.db.selectFrom('survey_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && webhookFromRow(row);
}

/** Creates a webhook (with a new secret), or changes the one with that id (its secret stays). */
export async function saveWebhook(
  executor: Executor,
  environmentId: string,
  input: WebhookInput,
  id?: string,
): Promise<WebhookRecord> {
  const at = now();
  const fields = {
    name: input.name ?? null,
    url: input.url,
    triggers: JSON.stringify(input.triggers),
    survey_ids: JSON.stringify(input.surveyIds ?? []),
    updated_at: at,
  };
  if (id) {
    await executor.db.updateTable('survey_webhooks').set(fields).where('id', '=', id).execute();
    return (await webhook(executor, id))!;
  }
  const created = cuid();
  await executor.db
    .insertInto('survey_webhooks')
    .values({
      id: created,
      environment_id: environmentId,
      source: input.source ?? 'api',
      secret: `whsec_${randomBytes(24).toString('base64')}`,
      created_at: at,
      ...fields,
    })
    .execute();
  return (await webhook(executor, created))!;
}

export async function deleteWebhook(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('survey_webhooks').where('id', '=', id).execute();
}

/**
 * Queues each event for every webhook of the environment that listens to it for this survey, with
 * Formbricks' payload `{webhookId, event, data}`; `data` is read only when some webhook listens.
 * Returns how many deliveries were queued.
 */
export async function enqueueWebhookEvents(
  executor: Executor,
  environmentId: string,
  surveyId: string,
  events: readonly WebhookTrigger[],
  data: () => Promise<unknown>,
): Promise<number> {
  const hooks = (await webhooks(executor, environmentId)).filter(
    (hook) => hook.surveyIds.length === 0 || hook.surveyIds.includes(surveyId),
  );
  const deliveries = events.flatMap((event) =>
    hooks.filter((hook) => hook.triggers.includes(event)).map((hook) => ({ hook, event })),
  );
  if (deliveries.length === 0) return 0;
  const body = await data();
  const at = now();
  await executor.db
    .insertInto('survey_webhook_deliveries')
    .values(
      deliveries.map(({ hook, event }) => ({
        id: cuid(),
        webhook_id: hook.id,
        event,
        payload: JSON.stringify({ webhookId: hook.id, event, data: body }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        last_error: null,
        created_at: at,
      })),
    )
    .execute();
  return deliveries.length;
}

export interface DueDelivery {
  id: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
}

/**
 * Claims up to `limit` deliveries that are due: each is pushed `leaseMs` into the future by a conditional
 * update, so that another process (a worker of `--workers`) does not send it too while it is in flight.
 */
export async function claimDueDeliveries(executor: Executor, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  const at = now();
  const due = await executor.db
    .selectFrom('survey_webhook_deliveries')
    .innerJoin('survey_webhooks', 'survey_webhooks.id', 'survey_webhook_deliveries.webhook_id')
    .select([
      'survey_webhook_deliveries.id',
      'survey_webhook_deliveries.payload',
      'survey_webhook_deliveries.attempts',
      'survey_webhook_deliveries.next_attempt_at',
      'survey_webhooks.url',
      'survey_webhooks.secret',
    ])
    .where('survey_webhook_deliveries.status', '=', 'pending')
    .where('survey_webhook_deliveries.next_attempt_at', '<=', at)
    .orderBy('survey_webhook_deliveries.next_attempt_at')
    .orderBy('survey_webhook_deliveries.id')
    .limit(limit)
    .execute();
  const lease = new Date(Date.now() + leaseMs).toISOString();
  const claimed: DueDelivery[] = [];
  for (const row of due) {
    const { numUpdatedRows } = await executor.db
      .updateTable('survey_webhook_deliveries')
      .set({ next_attempt_at: lease })
      .where('id', '=', row.id)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (numUpdatedRows > 0n) {
      claimed.push({ id: row.id, url: row.url, secret: row.secret, payload: row.payload, attempts: row.attempts });
    }
  }
  return claimed;
}

export async function deliveryDone(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('survey_webhook_deliveries').where('id', '=', id).execute();
}

/** Records a failed attempt: tried again at `retryAt`, or given up on (status failed) when there is none. */
export async function deliveryFailed(
  executor: Executor,
  id: string,
  attempts: number,
  error: string,
  retryAt: string | undefined,
): Promise<void> {
  await executor.db
    .updateTable('survey_webhook_deliveries')
    .set({
      attempts,
      last_error: error.slice(0, 1000),
      ...(retryAt ? { next_attempt_at: retryAt } : { status: 'failed' }),
    })
    .where('id', '=', id)
    .execute();
}

/** The deliveries of a webhook still queued or given up on, newest first: what the console shows. */
export async function webhookDeliveries(executor: Executor, webhookId: string) {
  const rows = await executor.db
    .selectFrom('survey_webhook_deliveries')
    .select(['id', 'event', 'status', 'attempts', 'next_attempt_at', 'last_error', 'created_at'])
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
  }));
}

const webhookFromRow = (row: {
  id: string;
  created_at: string;
  updated_at: string;
  environment_id: string;
  name: string | null;
  url: string;
  source: string;
  triggers: string;
  survey_ids: string;
  secret: string;
}): WebhookRecord => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  environmentId: row.environment_id,
  name: row.name,
  url: row.url,
  source: row.source === 'user' ? 'user' : 'api',
  triggers: JSON.parse(row.triggers),
  surveyIds: JSON.parse(row.survey_ids),
  secret: row.secret,
});
