/**
 * The Flipt store: every read and write of namespaces, flags, variants, segments, constraints, rules,
 * distributions and rollouts, over Ensign's database (SQLite or PostgreSQL).
 *
 * - Reads (`listFlags`, `getFlag`, ...) run on the current database.
 * - Each write method runs in ONE transaction and, after it commits, publishes the namespace it
 *   changed on the change feed. On a read-only store every write throws Flipt's read-only error
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
import type { ChangeFeed } from '../../changes.js';
import { FliptError, GrpcCode, readOnly } from '../errors.js';
import type { Executor } from './executor.js';
import * as namespaces from './namespaces.js';
import * as flags from './flags.js';
import * as segments from './segments.js';
import * as rules from './rules.js';
import * as rollouts from './rollouts.js';
import * as bulk from './bulk.js';
import type { ImportRows } from './bulk.js';
import type { Dialect } from '../../db/codec.js';

export type { Executor } from './executor.js';

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
}

/** Reads and writes inside one transaction; records the namespaces it changed. */
export class FliptWriter extends FliptReader {
  readonly touched = new Set<string>();
  /** Tables analysed by an import in this transaction (see bulk.ts). */
  private readonly analysed = new Set<string>();

  constructor(protected readonly executor: Executor) {
    super();
  }

  private touch(namespaceKey: string): Executor {
    this.touched.add(namespaceKey);
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
  insertImportRows(namespaceKey: string, rows: ImportRows) {
    return bulk.insertImportRows(this.touch(namespaceKey), rows, this.analysed);
  }

  createNamespace(input: CreateNamespaceInput) {
    return namespaces.createNamespace(this.touch(input.key), input);
  }
  updateNamespace(input: UpdateNamespaceInput) {
    return namespaces.updateNamespace(this.touch(input.key), input);
  }
  /** `force` deletes a protected or non-empty namespace, flags and all. */
  deleteNamespace(key: string, { force = false }: { force?: boolean } = {}) {
    return namespaces.deleteNamespace(this.touch(key), key, force);
  }

  /** Deletes every flag and segment of the namespace (an import's `--drop`). */
  emptyNamespace(key: string) {
    return namespaces.emptyNamespace(this.touch(key), key);
  }

  createFlag(input: CreateFlagInput) {
    return flags.createFlag(this.touch(input.namespaceKey), input);
  }
  updateFlag(input: UpdateFlagInput) {
    return flags.updateFlag(this.touch(input.namespaceKey), input);
  }
  deleteFlag(namespaceKey: string, key: string) {
    return flags.deleteFlag(this.touch(namespaceKey), namespaceKey, key);
  }
  createVariant(input: CreateVariantInput) {
    return flags.createVariant(this.touch(input.namespaceKey), input);
  }
  updateVariant(input: UpdateVariantInput) {
    return flags.updateVariant(this.touch(input.namespaceKey), input);
  }
  deleteVariant(namespaceKey: string, flagKey: string, id: string) {
    return flags.deleteVariant(this.touch(namespaceKey), namespaceKey, flagKey, id);
  }

  createSegment(input: CreateSegmentInput) {
    return segments.createSegment(this.touch(input.namespaceKey), input);
  }
  updateSegment(input: UpdateSegmentInput) {
    return segments.updateSegment(this.touch(input.namespaceKey), input);
  }
  deleteSegment(namespaceKey: string, key: string) {
    return segments.deleteSegment(this.touch(namespaceKey), namespaceKey, key);
  }
  createConstraint(input: CreateConstraintInput) {
    return segments.createConstraint(this.touch(input.namespaceKey), input);
  }
  updateConstraint(input: UpdateConstraintInput) {
    return segments.updateConstraint(this.touch(input.namespaceKey), input);
  }
  deleteConstraint(namespaceKey: string, segmentKey: string, id: string) {
    return segments.deleteConstraint(this.touch(namespaceKey), namespaceKey, segmentKey, id);
  }

  createRule(input: CreateRuleInput) {
    return rules.createRule(this.touch(input.namespaceKey), input);
  }
  updateRule(input: UpdateRuleInput) {
    return rules.updateRule(this.touch(input.namespaceKey), input);
  }
  deleteRule(namespaceKey: string, flagKey: string, id: string) {
    return rules.deleteRule(this.touch(namespaceKey), namespaceKey, flagKey, id);
  }
  orderRules(input: OrderRulesInput) {
    return rules.orderRules(this.touch(input.namespaceKey), input);
  }
  createDistribution(input: CreateDistributionInput) {
    return rules.createDistribution(this.touch(input.namespaceKey), input);
  }
  updateDistribution(input: UpdateDistributionInput) {
    return rules.updateDistribution(this.touch(input.namespaceKey), input);
  }
  deleteDistribution(input: DeleteDistributionInput) {
    return rules.deleteDistribution(this.touch(input.namespaceKey), input);
  }

  createRollout(input: CreateRolloutInput) {
    return rollouts.createRollout(this.touch(input.namespaceKey), input);
  }
  updateRollout(input: UpdateRolloutInput) {
    return rollouts.updateRollout(this.touch(input.namespaceKey), input);
  }
  deleteRollout(namespaceKey: string, flagKey: string, id: string) {
    return rollouts.deleteRollout(this.touch(namespaceKey), namespaceKey, flagKey, id);
  }
  orderRollouts(input: OrderRolloutsInput) {
    return rollouts.orderRollouts(this.touch(input.namespaceKey), input);
  }
}

type Write<A extends unknown[], R> = (...args: A) => Promise<R>;
type WriterMethods = {
  [K in keyof FliptWriter as FliptWriter[K] extends Write<never, unknown>
    ? K extends keyof FliptReader
      ? never
      : K
    : never]: FliptWriter[K];
};

/**
 * Each write checks uniqueness and references before writing, so a constraint violation means a
 * concurrent write got there first (PostgreSQL's read-committed transactions): 409, not 500.
 */
function conflict(error: unknown): FliptError | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (code === '23505' || text.includes('UNIQUE constraint failed')) {
    return new FliptError(GrpcCode.Aborted, 'a concurrent write created the same key; retry the request');
  }
  if (code === '23503' || text.includes('FOREIGN KEY constraint failed')) {
    return new FliptError(
      GrpcCode.Aborted,
      'a concurrent write changed what this request refers to; retry the request',
    );
  }
  return undefined;
}

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

  /** Runs `work` in one transaction; after the commit, publishes every namespace it touched. */
  async transaction<T>(work: (writer: FliptWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) throw readOnly();
    let touched: Set<string> = new Set();
    const result = await this.current
      .transaction(async (trx) => {
        const writer = new FliptWriter({ db: trx, dialect: this.current.dialect });
        touched = writer.touched;
        return work(writer);
      })
      .catch((error: unknown) => {
        throw conflict(error) ?? error;
      });
    for (const namespaceKey of touched) this.changes.publish(namespaceKey);
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
}
