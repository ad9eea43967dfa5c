/**
 * The Flipt store: every read and write of namespaces, flags, variants, segments, constraints, rules,
 * distributions and rollouts, over Ensign's database (SQLite or PostgreSQL).
 *
 * - Reads (`listFlags`, `getFlag`, ...) run on the current database.
 * - Each write method runs in ONE transaction and, after it commits, publishes the namespace it
 *   changed on the change feed, with the flag or segment it changed (a namespace's own change, or an
 *   import, names none: anything in it may have changed). On a read-only store every write throws Flipt's read-only error
 *   (500 `{"code":13,"message":"not implemented"}`) before touching anything.
 * - Several writes that must land together (an import) go through `transaction(work)`: `work` gets a
 *   `FliptWriter` bound to one transaction, with the same read and write methods; everything it did
 *   commits or rolls back as one, and each namespace it touched is published once after the commit.
 *   For example:
 *   `await store.transaction(async (tx) => { await tx.createFlag({...}); await tx.createVariant({...}); })`.
 * - The query functions themselves (`./flags.js`, `./segments.js`, ...) take an `Executor` (a
 *   database or a transaction plus its dialect) and can be called directly inside a transaction.
 *
 * Inputs are the outputs of the request schemas in `domain/flipt/schemas.ts` (already validated and
 * normalised: namespace key defaulted, enums as names, constraint values normalised).
 */
import type {
  CreateConstraintInput,
  CreateDistributionInput,
  CreateFlagInput,
  CreateNamespaceInput,
  CreateRolloutInput,
  CreateRuleInput,
  CreateSegmentInput,
  CreateVariantInput,
  DeleteDistributionInput,
  ListInput,
  OrderRolloutsInput,
  OrderRulesInput,
  UpdateConstraintInput,
  UpdateDistributionInput,
  UpdateFlagInput,
  UpdateNamespaceInput,
  UpdateRolloutInput,
  UpdateRuleInput,
  UpdateSegmentInput,
  UpdateVariantInput,
} from '../../../domain/flipt/schemas.js';
import type { Database } from '../../db/index.js';
import { type ChangeFeed, type EntityChange, TouchedScopes } from '../../changes.js';
import { concurrentWriteError, notFound, readOnly } from '../errors.js';
import type { Executor } from '../../db/executor.js';
import * as namespaces from './namespaces.js';
import * as flags from './flags.js';
import * as segments from './segments.js';
import * as rules from './rules.js';
import * as rollouts from './rollouts.js';
import * as bulk from './bulk.js';
import type { ImportRows } from './bulk.js';
import type { Dialect } from '../../db/codec.js';
import type {
  AuditNoun,
  AuditVerb,
  EntityState,
  FlagState,
  HistoryEntityType,
  HistoryEntry,
  RevertPreview,
} from '../../../domain/flipt/history.js';
import * as history from './history.js';
import { type Actor, type Change, type HistoryQuery, recordChange, SYSTEM_ACTOR, stateOf } from './history.js';
import { restore, revertRefusal, revertRefused, revertTarget } from './revert.js';
import { currentActor } from './actor.js';
import {
  type LoadedNamespace,
  loadNamespace,
  loadNamespaceParts,
  type NamespaceParts,
  type PartsRequest,
} from '../../evaluation/loader.js';

/** Every list reads everything when no page is asked for. */
export const ALL: ListInput = { limit: 0, offset: 0, pageToken: '' };

/** The read methods, over whichever executor the subclass provides. */
export abstract class FliptReader {
  protected abstract get executor(): Executor;

  listNamespaces(page: ListInput = ALL) {
    return namespaces.listNamespaces(this.executor, page);
  }
  getNamespace(key: string) {
    return namespaces.getNamespace(this.executor, key);
  }
  /** `counted: false` leaves `totalCount` 0 rather than counting the namespace's flags. */
  listFlags(namespaceKey: string, page: ListInput = ALL, counted = true) {
    return flags.listFlags(this.executor, namespaceKey, page, counted);
  }
  getFlag(namespaceKey: string, key: string) {
    return flags.getFlag(this.executor, namespaceKey, key);
  }
  /** The keys of a namespace's flags, unordered (an export sorted by key). */
  flagKeys(namespaceKey: string) {
    return flags.flagKeys(this.executor, namespaceKey);
  }
  /** The flags with the given keys, in that order (an export sorted by key reads them a page at a time). */
  flagsWithKeys(namespaceKey: string, keys: string[]) {
    return flags.flagsWithKeys(this.executor, namespaceKey, keys);
  }
  listSegments(namespaceKey: string, page: ListInput = ALL) {
    return segments.listSegments(this.executor, namespaceKey, page);
  }
  getSegment(namespaceKey: string, key: string) {
    return segments.getSegment(this.executor, namespaceKey, key);
  }
  listRules(namespaceKey: string, flagKey: string, page: ListInput = ALL) {
    return rules.listRules(this.executor, namespaceKey, flagKey, page);
  }
  getRule(namespaceKey: string, flagKey: string, id: string) {
    return rules.getRule(this.executor, namespaceKey, flagKey, id);
  }
  /** The rules of each of the given flags of a namespace, by flag key (an export's page of flags). */
  rulesOfFlags(namespaceKey: string, flagKeys: string[]) {
    return rules.rulesOfFlags(this.executor, namespaceKey, flagKeys);
  }
  listRollouts(namespaceKey: string, flagKey: string, page: ListInput = ALL) {
    return rollouts.listRollouts(this.executor, namespaceKey, flagKey, page);
  }
  getRollout(namespaceKey: string, flagKey: string, id: string) {
    return rollouts.getRollout(this.executor, namespaceKey, flagKey, id);
  }
  /** The rollouts of each of the given flags of a namespace, by flag key (an export's page of flags). */
  rolloutsOfFlags(namespaceKey: string, flagKeys: string[]) {
    return rollouts.rolloutsOfFlags(this.executor, namespaceKey, flagKeys);
  }
  listHistory(namespaceKey: string, query: HistoryQuery) {
    return history.listHistory(this.executor, namespaceKey, query);
  }
  /** The changes of every namespace after history entry `id`, oldest first (ChangeFeed.followHistory). */
  changesAfter(id: number, limit: number) {
    return history.changesAfter(this.executor, id, limit);
  }
  lastHistoryId() {
    return history.lastHistoryId(this.executor);
  }
  /** What reverting the entry would do: the entity now, the state it would get, and why not if it cannot. */
  async revertPreview(namespaceKey: string, id: string): Promise<RevertPreview> {
    const entry = await requireEntry(this.executor, namespaceKey, id);
    const current = await history.stateOf(this.executor, entry.entityType, namespaceKey, entry.entityKey);
    const refusal = await revertRefusal(this.executor, entry, current);
    return { entry, current: current ?? null, target: revertTarget(entry), ...(refusal ? { refusal } : {}) };
  }
}

async function requireEntry(executor: Executor, namespaceKey: string, id: string): Promise<HistoryEntry> {
  const entry = await history.historyEntry(executor, namespaceKey, id);
  if (!entry) throw notFound(`history entry "${namespaceKey}/${id}"`);
  return entry;
}

/** Reads and writes inside one transaction; records what it changed, by namespace. */
export class FliptWriter extends FliptReader {
  readonly touched = new TouchedScopes();
  /** Tables analysed by an import in this transaction (see bulk.ts). */
  private readonly analysed = new Set<string>();

  constructor(
    protected readonly executor: Executor,
    private readonly actor: Actor,
  ) {
    super();
  }

  /** Runs another store's write in this transaction, so that it commits (or not) with this change. */
  within<T>(work: (transaction: Executor) => Promise<T>): Promise<T> {
    return work(this.executor);
  }

  /** Records a change to the entity of a history entry: a flag, a segment or a namespace (anything in it). */
  private touch(change: EntityChange): Executor {
    this.touched.add(change);
    return this.executor;
  }

  get dialect(): Dialect {
    return this.executor.dialect;
  }

  /** The keys of a namespace's flags or segments. */
  keysIn(table: 'flags' | 'segments', namespaceKey: string) {
    return bulk.keysIn(this.executor, table, namespaceKey);
  }
  /** Readies this transaction for an import's bulk inserts (see bulk.ts). */
  prepareImport() {
    return bulk.prepareImport(this.executor);
  }
  /** Inserts rows an import has already checked as the single writes would (see declarative/import.ts). */
  /** One history entry per batch, naming what it imported (entries per entity would double an import's writes). */
  insertImportRows(namespaceKey: string, rows: ImportRows) {
    const imported = {
      flags: rows.flags.map((flag) => flag.key),
      segments: rows.segments.map((segment) => segment.key),
    };
    return this.change(namespaceChange(namespaceKey, 'updated'), (e) => bulk.insertImportRows(e, rows, this.analysed), {
      request: { key: namespaceKey, imported },
      evenIfUnchanged: true,
    });
  }

  createNamespace(input: CreateNamespaceInput) {
    return this.change(namespaceChange(input.key, 'created'), (e) => namespaces.createNamespace(e, input));
  }
  updateNamespace(input: UpdateNamespaceInput) {
    return this.change(namespaceChange(input.key, 'updated'), (e) => namespaces.updateNamespace(e, input));
  }
  /** `force` deletes a protected or non-empty namespace, flags and all. */
  deleteNamespace(key: string, { force = false }: { force?: boolean } = {}) {
    return this.change(namespaceChange(key, 'deleted'), (e) => namespaces.deleteNamespace(e, key, force), {
      request: { key, force },
    });
  }

  /**
   * Deletes every flag and segment of the namespace (an import's `--drop`). Its entry is on the
   * namespace, whose own fields do not change, so it is recorded even so (see recordedState).
   */
  emptyNamespace(key: string) {
    return this.change(namespaceChange(key, 'updated'), (e) => namespaces.emptyNamespace(e, key), {
      request: { key, emptied: true },
      evenIfUnchanged: true,
    });
  }

  createFlag(input: CreateFlagInput) {
    // A created flag did not exist (createFlag refuses a taken key), and has no rules or rollouts yet.
    return this.change(
      flagChange(input.namespaceKey, input.key, 'flag', 'created'),
      (e) => flags.createFlag(e, input),
      {
        before: 'absent',
        after: (_before, flag) => ({ flag, rules: [], rollouts: [] }),
      },
    );
  }
  updateFlag(input: UpdateFlagInput) {
    // Updating a flag's own fields leaves its rules and rollouts as they were.
    return this.change(
      flagChange(input.namespaceKey, input.key, 'flag', 'updated'),
      (e) => flags.updateFlag(e, input),
      {
        after: (before, flag) => ({ ...(before as FlagState), flag }),
      },
    );
  }
  deleteFlag(namespaceKey: string, key: string) {
    return this.change(
      flagChange(namespaceKey, key, 'flag', 'deleted'),
      (e) => flags.deleteFlag(e, namespaceKey, key),
      { request: { namespaceKey, key } },
    );
  }
  createVariant(input: CreateVariantInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'variant', 'created'), (e) =>
      flags.createVariant(e, input),
    );
  }
  updateVariant(input: UpdateVariantInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'variant', 'updated'), (e) =>
      flags.updateVariant(e, input),
    );
  }
  deleteVariant(namespaceKey: string, flagKey: string, id: string) {
    return this.change(
      flagChange(namespaceKey, flagKey, 'variant', 'deleted'),
      (e) => flags.deleteVariant(e, namespaceKey, flagKey, id),
      { request: { id, flagKey, namespaceKey } },
    );
  }

  createSegment(input: CreateSegmentInput) {
    return this.change(segmentChange(input.namespaceKey, input.key, 'segment', 'created'), (e) =>
      segments.createSegment(e, input),
    );
  }
  updateSegment(input: UpdateSegmentInput) {
    return this.change(segmentChange(input.namespaceKey, input.key, 'segment', 'updated'), (e) =>
      segments.updateSegment(e, input),
    );
  }
  deleteSegment(namespaceKey: string, key: string) {
    return this.change(
      segmentChange(namespaceKey, key, 'segment', 'deleted'),
      (e) => segments.deleteSegment(e, namespaceKey, key),
      { request: { namespaceKey, key } },
    );
  }
  createConstraint(input: CreateConstraintInput) {
    return this.change(segmentChange(input.namespaceKey, input.segmentKey, 'constraint', 'created'), (e) =>
      segments.createConstraint(e, input),
    );
  }
  updateConstraint(input: UpdateConstraintInput) {
    return this.change(segmentChange(input.namespaceKey, input.segmentKey, 'constraint', 'updated'), (e) =>
      segments.updateConstraint(e, input),
    );
  }
  deleteConstraint(namespaceKey: string, segmentKey: string, id: string) {
    return this.change(
      segmentChange(namespaceKey, segmentKey, 'constraint', 'deleted'),
      (e) => segments.deleteConstraint(e, namespaceKey, segmentKey, id),
      { request: { id, segmentKey, namespaceKey } },
    );
  }

  createRule(input: CreateRuleInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'rule', 'created'), (e) =>
      rules.createRule(e, input),
    );
  }
  updateRule(input: UpdateRuleInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'rule', 'updated'), (e) =>
      rules.updateRule(e, input),
    );
  }
  deleteRule(namespaceKey: string, flagKey: string, id: string) {
    return this.change(
      flagChange(namespaceKey, flagKey, 'rule', 'deleted'),
      (e) => rules.deleteRule(e, namespaceKey, flagKey, id),
      { request: { id, flagKey, namespaceKey } },
    );
  }
  /** A reorder is an update of the flag's rules; its payload is the request (the new order). */
  orderRules(input: OrderRulesInput) {
    return this.change(
      flagChange(input.namespaceKey, input.flagKey, 'rule', 'updated'),
      (e) => rules.orderRules(e, input),
      { request: input },
    );
  }
  createDistribution(input: CreateDistributionInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'distribution', 'created'), (e) =>
      rules.createDistribution(e, input),
    );
  }
  updateDistribution(input: UpdateDistributionInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'distribution', 'updated'), (e) =>
      rules.updateDistribution(e, input),
    );
  }
  deleteDistribution(input: DeleteDistributionInput) {
    return this.change(
      flagChange(input.namespaceKey, input.flagKey, 'distribution', 'deleted'),
      (e) => rules.deleteDistribution(e, input),
      { request: input },
    );
  }

  createRollout(input: CreateRolloutInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'rollout', 'created'), (e) =>
      rollouts.createRollout(e, input),
    );
  }
  updateRollout(input: UpdateRolloutInput) {
    return this.change(flagChange(input.namespaceKey, input.flagKey, 'rollout', 'updated'), (e) =>
      rollouts.updateRollout(e, input),
    );
  }
  deleteRollout(namespaceKey: string, flagKey: string, id: string) {
    return this.change(
      flagChange(namespaceKey, flagKey, 'rollout', 'deleted'),
      (e) => rollouts.deleteRollout(e, namespaceKey, flagKey, id),
      { request: { id, flagKey, namespaceKey } },
    );
  }
  /** A reorder is an update of the flag's rollouts; its payload is the request (the new order). */
  orderRollouts(input: OrderRolloutsInput) {
    return this.change(
      flagChange(input.namespaceKey, input.flagKey, 'rollout', 'updated'),
      (e) => rollouts.orderRollouts(e, input),
      { request: input },
    );
  }

  /** The flag as `rewrite` makes it from its current state (a guard's rollback; unchanged still records it), one change. */
  reconfigureFlag(namespaceKey: string, flagKey: string, rewrite: (state: FlagState) => FlagState, reason: unknown) {
    return this.change(
      flagChange(namespaceKey, flagKey, 'flag', 'updated'),
      async (e) => {
        const current = (await history.stateOf(e, 'flag', namespaceKey, flagKey)) as FlagState | undefined;
        if (!current) throw notFound(`flag "${namespaceKey}/${flagKey}"`);
        const target = rewrite(current);
        if (target !== current)
          await restore(e, { entityType: 'flag', namespaceKey, entityKey: flagKey }, target, current);
      },
      { request: reason, evenIfUnchanged: true },
    );
  }

  /** Restores the entity of a history entry to its state before that change, as one new change; returns the new entry. */
  async revert(namespaceKey: string, id: string): Promise<HistoryEntry> {
    await this.takeHistoryTurn();
    const entry = await requireEntry(this.executor, namespaceKey, id);
    const executor = this.touch(entry);
    const { entityType, entityKey } = entry;
    const current = await history.stateOf(executor, entityType, namespaceKey, entityKey);
    const refusal = await revertRefusal(executor, entry, current);
    if (refusal) throw revertRefused(refusal);
    await restore(executor, entry, revertTarget(entry), current);
    const after = await history.stateOf(executor, entityType, namespaceKey, entityKey);
    const action = !current ? 'created' : after ? 'updated' : 'deleted';
    const object = after && entityType === 'flag' ? (after as FlagState).flag : after;
    const payload = { ...(object ?? { namespaceKey, key: entityKey }), revertOf: id };
    const change: Change = { entityType, namespaceKey, entityKey, noun: entityType, action };
    this.touched.recorded(await recordChange(executor, change, this.actor, current, after, payload));
    const [latest] = (await history.listHistory(executor, namespaceKey, { entityType, entityKey, limit: 1 })).entries;
    return latest;
  }

  /**
   * Runs one write and records it in the history, in this transaction: the entity's whole state
   * before and after, and the audit payload (the object written, or `request` for a delete or a
   * reorder, which return nothing). The state before comes from the entity's latest entry when that
   * is current (see recordedState); the state after is read again unless `after` derives it from the
   * state before and the write's result. Reading a flag's rows twice was most of the cost of
   * recording a change (bench/history).
   */
  private historyTurnTaken = false;

  private async takeHistoryTurn(): Promise<void> {
    if (this.historyTurnTaken) return;
    await history.takeHistoryTurn(this.executor);
    this.historyTurnTaken = true;
  }

  private async stateBefore({ entityType, namespaceKey, entityKey }: Change): Promise<EntityState | undefined> {
    if (entityType !== 'namespace') {
      const recorded = await history.recordedState(this.executor, entityType, namespaceKey, entityKey);
      if (recorded) return recorded.state;
    }
    return stateOf(this.executor, entityType, namespaceKey, entityKey);
  }

  private async change<R>(
    change: Change,
    write: (executor: Executor) => Promise<R>,
    how: ChangeOptions<R> = {},
  ): Promise<R> {
    const executor = this.touch(change);
    const { entityType, namespaceKey, entityKey } = change;
    await this.takeHistoryTurn();
    const before = how.before === 'absent' ? undefined : await this.stateBefore(change);
    const result = await write(executor);
    const after = how.after ? how.after(before, result) : await stateOf(executor, entityType, namespaceKey, entityKey);
    this.touched.recorded(await recordChange(executor, change, this.actor, before, after, how.request ?? result, how));
    return result;
  }
}

interface ChangeOptions<R> {
  /** The audit payload when the write returns nothing to show (a delete, a reorder). */
  request?: unknown;
  /** Record the entry even if the entity is unchanged (an import's entry on its namespace). */
  evenIfUnchanged?: boolean;
  /** 'absent': the write fails unless the entity did not exist, so its state before need not be read. */
  before?: 'absent';
  /** The state after the write, derived from the state before and the write's result. */
  after?: (before: EntityState | undefined, result: R) => EntityState;
}

const changeOf = (
  entityType: HistoryEntityType,
  namespaceKey: string,
  entityKey: string,
  noun: AuditNoun,
  action: AuditVerb,
): Change => ({ entityType, namespaceKey, entityKey, noun, action });
const namespaceChange = (key: string, action: AuditVerb) => changeOf('namespace', key, key, 'namespace', action);
const flagChange = (namespaceKey: string, key: string, noun: AuditNoun, action: AuditVerb) =>
  changeOf('flag', namespaceKey, key, noun, action);
const segmentChange = (namespaceKey: string, key: string, noun: AuditNoun, action: AuditVerb) =>
  changeOf('segment', namespaceKey, key, noun, action);

type Write<A extends unknown[], R> = (...args: A) => Promise<R>;
type WriterMethods = {
  [K in keyof FliptWriter as FliptWriter[K] extends Write<never, unknown>
    ? K extends keyof FliptReader
      ? never
      : K
    : never]: FliptWriter[K];
};

export interface FliptStoreOptions {
  readOnly: boolean;
}

export class FliptStore extends FliptReader {
  readonly readOnly: boolean;
  private current: Database;

  constructor(
    database: Database,
    private readonly changes: ChangeFeed,
    options: FliptStoreOptions,
  ) {
    super();
    this.current = database;
    this.readOnly = options.readOnly;
  }

  get database(): Database {
    return this.current;
  }

  /** The namespace's evaluation data, in one consistent read (the snapshot cache's `NamespaceSource`). */
  loadNamespace(namespaceKey: string): Promise<LoadedNamespace> {
    return loadNamespace(this.database, namespaceKey);
  }

  /** Some flags and segments of the namespace's evaluation data, in one consistent read. */
  loadNamespaceParts(namespaceKey: string, request: PartsRequest): Promise<NamespaceParts> {
    return loadNamespaceParts(this.database, namespaceKey, request);
  }

  protected get executor(): Executor {
    return this.current;
  }

  /**
   * Serves reads from another database from now on (the local storage loads its files into a fresh
   * database and swaps it in). The caller closes the old one and publishes what changed.
   */
  replaceDatabase(database: Database): void {
    this.current = database;
  }

  /**
   * Runs `work` in one transaction; after the commit, publishes every namespace it touched and returns once the
   * evaluation snapshots hold the change.
   */
  async transaction<T>(work: (writer: FliptWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) throw readOnly();
    let touched = new TouchedScopes();
    const result = await this.current
      .transaction(async (trx) => {
        const writer = new FliptWriter({ db: trx, dialect: this.current.dialect }, currentActor() ?? SYSTEM_ACTOR);
        touched = writer.touched;
        return work(writer);
      })
      .catch((error: unknown) => {
        throw concurrentWriteError(error) ?? error;
      });
    this.changes.recordedHere(touched.entries);
    await Promise.all(Array.from(touched.scopes(), ([key, scope]) => this.changes.publish(key, scope)));
    return result;
  }

  private write<K extends keyof WriterMethods>(method: K) {
    return ((...args: Parameters<WriterMethods[K]>) =>
      this.transaction((writer) =>
        (writer[method] as (...a: unknown[]) => Promise<unknown>)(...args),
      )) as WriterMethods[K];
  }

  readonly createNamespace = this.write('createNamespace');
  readonly updateNamespace = this.write('updateNamespace');
  readonly deleteNamespace = this.write('deleteNamespace');
  readonly createFlag = this.write('createFlag');
  readonly updateFlag = this.write('updateFlag');
  readonly deleteFlag = this.write('deleteFlag');
  readonly createVariant = this.write('createVariant');
  readonly updateVariant = this.write('updateVariant');
  readonly deleteVariant = this.write('deleteVariant');
  readonly createSegment = this.write('createSegment');
  readonly updateSegment = this.write('updateSegment');
  readonly deleteSegment = this.write('deleteSegment');
  readonly createConstraint = this.write('createConstraint');
  readonly updateConstraint = this.write('updateConstraint');
  readonly deleteConstraint = this.write('deleteConstraint');
  readonly createRule = this.write('createRule');
  readonly updateRule = this.write('updateRule');
  readonly deleteRule = this.write('deleteRule');
  readonly orderRules = this.write('orderRules');
  readonly createDistribution = this.write('createDistribution');
  readonly updateDistribution = this.write('updateDistribution');
  readonly deleteDistribution = this.write('deleteDistribution');
  readonly createRollout = this.write('createRollout');
  readonly updateRollout = this.write('updateRollout');
  readonly deleteRollout = this.write('deleteRollout');
  readonly orderRollouts = this.write('orderRollouts');
  readonly revert = this.write('revert');
}
