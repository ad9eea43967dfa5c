/**
 * Tells the change feed when the survey store commits a write to what the widget's sync sends
 * (surveys, action classes, products, environments and any table added later), so that the kept
 * sync answers (server/surveys/sync.ts) are dropped on this instance, its other workers and the
 * other instances on the same PostgreSQL database. The writes are recognised in the queries
 * themselves, so a store function added later needs nothing to be seen.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Database } from '../../db/index.js';

/** The change feed's key for "the survey provider's shared content changed" (not a Flipt namespace key: those have no colon). */
export const SURVEY_CONTENT = 'surveys:content';

/** Written by visitors' own calls (people, attributes, actions, displays, responses, uploads): no sync's shared part reads them. */
const VISITOR_TABLES = new Set([
  'survey_people',
  'survey_attributes',
  'survey_actions',
  'survey_displays',
  'survey_responses',
  'survey_files',
  // The results' rollups, kept with each display and response write (rollups.ts).
  'survey_result_groups',
  'survey_result_times',
  'survey_result_displays',
]);

/**
 * The database as the survey store sees it: `published` is called once a write to shared content
 * has committed (after the statement, or after the commit of the transaction that made it).
 */
export function publishingContentWrites(database: Database, published: () => void): Database {
  const autocommit = new ContentWrites(published);
  return {
    ...database,
    db: database.db.withPlugin(autocommit),
    transaction: async (work) => {
      let wrote = false;
      const inTransaction = new ContentWrites(() => {
        wrote = true;
      });
      const result = await database.transaction((trx) => work(trx.withPlugin(inTransaction)));
      if (wrote) published();
      return result;
    },
  };
}

class ContentWrites implements KyselyPlugin {
  /** Queries that write content, told of once they have run (a failed one is not). */
  private readonly writing = new WeakSet<QueryId>();

  constructor(private readonly wrote: () => void) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (writesContent(node)) this.writing.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.writing.delete(queryId)) this.wrote();
    return result;
  }
}

function writesContent(node: RootOperationNode): boolean {
  switch (node.kind) {
    case 'SelectQueryNode':
      return false;
    case 'RawNode':
      return /^\s*(insert|update|delete|replace|merge|with)\b/i.test(node.sqlFragments[0] ?? '');
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode': {
      const tables = tablesIn(node);
      // A statement whose table is not found is taken as a content write: a kept answer too many is dropped, never one too few.
      return tables.length === 0 || tables.some((table) => !VISITOR_TABLES.has(table));
    }
    default:
      return true;
  }
}

/** The tables a write statement names as its target (`into`, `table`, `from`, through aliases). */
function tablesIn(node: OperationNode): string[] {
  const found: string[] = [];
  const visit = (candidate: unknown) => {
    if (!candidate || typeof candidate !== 'object') return;
    const operation = candidate as OperationNode & Record<string, unknown>;
    if (operation.kind === 'TableNode')
      found.push((operation as unknown as { table: { identifier: { name: string } } }).table.identifier.name);
    else if (operation.kind === 'AliasNode') visit(operation.node);
    else if (operation.kind === 'FromNode') for (const from of operation.froms as unknown[]) visit(from);
  };
  const write = node as unknown as Record<string, unknown>;
  visit(write.into);
  visit(write.table);
  if (node.kind === 'DeleteQueryNode') visit(write.from);
  return found;
}
