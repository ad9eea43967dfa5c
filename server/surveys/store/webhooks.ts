/** Webhooks (Formbricks 1.6's, with a signing secret) and their durable delivery queue. */
import { randomBytes } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { SurveyWebhooksTable } from '../../db/schema.js';
import { type Executor, inTransaction } from '../../db/executor.js';
import { cuid } from '../ids.js';
import { inCreationOrder, now } from './shared.js';
import type { Webhook, WebhookTrigger } from '../../../domain/surveys/webhooks.js';

export { WEBHOOK_TRIGGERS, type WebhookTrigger } from '../../../domain/surveys/webhooks.js';
/** A stored webhook is the one the APIs answer with. */
export type WebhookRecord = Webhook;

export interface WebhookInput {
  name?: string | null;
  url: string;
  source?: 'user' | 'api';
  triggers: WebhookTrigger[];
  surveyIds?: string[];
}

export async function webhooks(executor: Executor, environmentId: string): Promise<WebhookRecord[]> {
  const query = executor.db.selectFrom('survey_webhooks').selectAll().where('environment_id', '=', environmentId);
  const rows = await inCreationOrder(query).execute();
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

export async function countWebhooks(executor: Executor, environmentId: string): Promise<number> {
  const row = await executor.db
    .selectFrom('survey_webhooks')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('environment_id', '=', environmentId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes a webhook, its deliveries and the payloads only they referred to. */
export async function deleteWebhook(executor: Executor, id: string): Promise<void> {
  await executor.db.deleteFrom('survey_webhooks').where('id', '=', id).execute();
  await deleteUnreferencedPayloads(executor);
}

/**
 * Queues each event for every webhook of the environment that listens to it for this survey; `data` is
 * read only when some webhook listens, and stored once for all of them. A webhook already holding
 * `maxPending` deliveries pending gets no more. Returns how many deliveries were queued and how many left out.
 */
export async function enqueueWebhookEvents(
  executor: Executor,
  environmentId: string,
  surveyId: string,
  events: readonly WebhookTrigger[],
  data: () => Promise<unknown>,
  maxPending: number,
): Promise<{ queued: number; leftOut: number }> {
  const hooks = (await webhooks(executor, environmentId)).filter(
    (hook) => hook.surveyIds.length === 0 || hook.surveyIds.includes(surveyId),
  );
  const wanted = events.flatMap((event) =>
    hooks.filter((hook) => hook.triggers.includes(event)).map((hook) => ({ hook, event })),
  );
  if (wanted.length === 0) return { queued: 0, leftOut: 0 };
  const pending = new Map(
    (
      await executor.db
        .selectFrom('survey_webhook_deliveries')
        .select(['webhook_id', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .where('webhook_id', 'in', [...new Set(wanted.map(({ hook }) => hook.id))])
        .where('status', '=', 'pending')
        .groupBy('webhook_id')
        .execute()
    ).map((row) => [row.webhook_id, Number(row.count)]),
  );
  const deliveries = wanted.filter(({ hook }) => {
    const count = pending.get(hook.id) ?? 0;
    pending.set(hook.id, count + 1);
    return count < maxPending;
  });
  const leftOut = wanted.length - deliveries.length;
  if (deliveries.length === 0) return { queued: 0, leftOut };
  const body = JSON.stringify(await data());
  const at = now();
  const payloadId = cuid();
  await inTransaction(executor, async (trx) => {
    await trx.db
      .insertInto('survey_webhook_payloads')
      .values({ id: payloadId, environment_id: environmentId, data: body, created_at: at })
      .execute();
    await trx.db
      .insertInto('survey_webhook_deliveries')
      .values(
        deliveries.map(({ hook, event }) => ({
          id: cuid(),
          webhook_id: hook.id,
          event,
          payload_id: payloadId,
          status: 'pending',
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          created_at: at,
        })),
      )
      .execute();
  });
  return { queued: deliveries.length, leftOut };
}

export interface DueDelivery {
  id: string;
  webhookId: string;
  environmentId: string;
  payloadId: string;
  url: string;
  secret: string;
  /** Formbricks' payload, `{webhookId, event, data}`. */
  payload: string;
  attempts: number;
}

/** Deliveries in flight at once: at most so many to a webhook and to an environment's webhooks. */
export interface DeliveryLimits {
  perWebhook: number;
  perEnvironment: number;
}

/** How many deliveries are in flight, by webhook id and by environment id. */
export interface InFlight {
  webhooks: ReadonlyMap<string, number>;
  environments: ReadonlyMap<string, number>;
}

/**
 * Claims up to `limit` deliveries that are due, of webhooks not paused, the longest due first, within the
 * limits per webhook and per environment counting those `inFlight` already. Each is pushed `leaseMs` into
 * the future by a conditional update, so that another process (a worker of `--workers`) does not send it
 * too while it is in flight.
 */
export async function claimDueDeliveries(
  executor: Executor,
  limit: number,
  leaseMs: number,
  limits: DeliveryLimits,
  inFlight: InFlight,
): Promise<DueDelivery[]> {
  const full = (counts: ReadonlyMap<string, number>, most: number) =>
    [...counts].filter(([, count]) => count >= most).map(([id]) => id);
  const fullWebhooks = full(inFlight.webhooks, limits.perWebhook);
  const fullEnvironments = full(inFlight.environments, limits.perEnvironment);
  // Each webhook's first due deliveries, then each environment's first of those: the candidates.
  const byWebhook = executor.db
    .selectFrom('survey_webhook_deliveries as d')
    .innerJoin('survey_webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.next_attempt_at',
      'w.environment_id',
      sql<number>`row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.id)`.as('place'),
    ])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now())
    .where('w.paused_at', 'is', null)
    .$if(fullWebhooks.length > 0, (query) => query.where('d.webhook_id', 'not in', fullWebhooks))
    .$if(fullEnvironments.length > 0, (query) => query.where('w.environment_id', 'not in', fullEnvironments));
  const byEnvironment = executor.db
    .selectFrom(byWebhook.as('w'))
    .select([
      'w.id',
      sql<number>`row_number() over (partition by w.environment_id order by w.next_attempt_at, w.id)`.as('place'),
    ])
    .where('w.place', '<=', limits.perWebhook);
  const inFlightCount = [...inFlight.webhooks.values()].reduce((sum, count) => sum + count, 0);
  const candidates = await executor.db
    .selectFrom(byEnvironment.as('e'))
    .innerJoin('survey_webhook_deliveries as d', 'd.id', 'e.id')
    .innerJoin('survey_webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('survey_webhook_payloads as p', 'p.id', 'd.payload_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.payload_id',
      'd.event',
      'd.attempts',
      'd.next_attempt_at',
      'w.environment_id',
      'w.url',
      'w.secret',
      'p.data',
    ])
    .where('e.place', '<=', limits.perEnvironment)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    // A candidate is passed over only for a webhook or environment with deliveries in flight.
    .limit(limit + inFlightCount)
    .execute();
  const webhookCounts = new Map(inFlight.webhooks);
  const environmentCounts = new Map(inFlight.environments);
  const lease = new Date(Date.now() + leaseMs).toISOString();
  const claimed: DueDelivery[] = [];
  for (const row of candidates) {
    if (claimed.length === limit) break;
    const forWebhook = webhookCounts.get(row.webhook_id) ?? 0;
    const forEnvironment = environmentCounts.get(row.environment_id) ?? 0;
    if (forWebhook >= limits.perWebhook || forEnvironment >= limits.perEnvironment) continue;
    const { numUpdatedRows } = await executor.db
      .updateTable('survey_webhook_deliveries')
      .set({ next_attempt_at: lease })
      .where('id', '=', row.id)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) continue;
    webhookCounts.set(row.webhook_id, forWebhook + 1);
    environmentCounts.set(row.environment_id, forEnvironment + 1);
    claimed.push({
      id: row.id,
      webhookId: row.webhook_id,
      environmentId: row.environment_id,
      payloadId: row.payload_id,
      url: row.url,
      secret: row.secret,
      payload: `{"webhookId":${JSON.stringify(row.webhook_id)},"event":${JSON.stringify(row.event)},"data":${row.data}}`,
      attempts: row.attempts,
    });
  }
  return claimed;
}

/** A delivery went through: it leaves the queue, with its payload when no other delivery refers to it. */
export async function deliveryDone(executor: Executor, delivery: DueDelivery): Promise<void> {
  await executor.db.deleteFrom('survey_webhook_deliveries').where('id', '=', delivery.id).execute();
  await deleteUnreferencedPayloads(executor, delivery.payloadId);
  await executor.db
    .updateTable('survey_webhooks')
    .set({ failures_in_a_row: 0 })
    .where('id', '=', delivery.webhookId)
    .where('failures_in_a_row', '<>', 0)
    .execute();
}

/**
 * Records a failed attempt: tried again at `retryAt`, or given up on (status failed) when there is none.
 * The webhook is paused when this makes `pauseAfter` failed attempts in a row.
 */
export async function deliveryFailed(
  executor: Executor,
  delivery: DueDelivery,
  error: string,
  retryAt: string | undefined,
  pauseAfter: number,
): Promise<void> {
  await executor.db
    .updateTable('survey_webhook_deliveries')
    .set({
      attempts: delivery.attempts + 1,
      last_error: error,
      ...(retryAt ? { next_attempt_at: retryAt } : { status: 'failed' }),
    })
    .where('id', '=', delivery.id)
    .execute();
  await executor.db
    .updateTable('survey_webhooks')
    .set((eb) => ({
      failures_in_a_row: eb('failures_in_a_row', '+', 1),
      paused_at: eb
        .case()
        .when('failures_in_a_row', '>=', pauseAfter - 1)
        .then(eb.fn.coalesce('paused_at', eb.val(now())))
        .else(eb.ref('paused_at'))
        .end(),
    }))
    .where('id', '=', delivery.webhookId)
    .execute();
}

/** Delivers a paused webhook's deliveries again, at once. */
export async function resumeWebhook(executor: Executor, id: string): Promise<void> {
  await inTransaction(executor, async (trx) => {
    await trx.db
      .updateTable('survey_webhooks')
      .set({ paused_at: null, failures_in_a_row: 0 })
      .where('id', '=', id)
      .execute();
    await trx.db
      .updateTable('survey_webhook_deliveries')
      .set({ next_attempt_at: now() })
      .where('webhook_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  });
}

/** Removes the payloads (of the one given, else all) that no delivery refers to any more. */
async function deleteUnreferencedPayloads(executor: Executor, id?: string): Promise<void> {
  await executor.db
    .deleteFrom('survey_webhook_payloads')
    .$if(id !== undefined, (query) => query.where('id', '=', id!))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('survey_webhook_deliveries')
            .select('survey_webhook_deliveries.id')
            .whereRef('survey_webhook_deliveries.payload_id', '=', 'survey_webhook_payloads.id'),
        ),
      ),
    )
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

const webhookFromRow = (row: Omit<Selectable<SurveyWebhooksTable>, 'failures_in_a_row'>): WebhookRecord => ({
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
  pausedAt: row.paused_at,
});
