import * as v from 'valibot';
import { duration } from './duration.js';
import { bool, defineSection, num, opt, str } from './section.js';

export const DEFAULT_DB_URL = 'file:./data/ensign.db';

const POOL = 'Ensign sizes its own connection pool';

export const dbSection = defineSection({
  key: 'db',
  schema: v.strictObject({
    url: opt(str),
    max_idle_conn: opt(num),
    max_open_conn: opt(num),
    conn_max_lifetime: opt(duration),
    prepared_statements_enabled: opt(bool),
  }),
  defaults: { url: DEFAULT_DB_URL },
  refused: {
    'db.max_idle_conn': POOL,
    'db.max_open_conn': POOL,
    'db.conn_max_lifetime': POOL,
    'db.prepared_statements_enabled': 'Ensign chooses its own statements',
  },
  resolve: (settings): { db: { url: string } } => ({ db: { url: settings.url } }),
});
