import { leafAt, LEAVES } from './keys.js';

/** A key's value and where it came from: `default`, `file`, `env NAME` or `flag --name`. */
export interface ConfigSource {
  value: unknown;
  source: string;
}

/** Keys whose values are secrets, by their last names; a map's entries count as their map's key. */
const SECRETS = [
  'client_secret',
  'password',
  'access_token',
  'private_key_bytes',
  'signing_secret',
  'bootstrap.token',
  'csrf.key',
  'otlp.headers',
];

const MASK = '******';

/** One line per key with a value, `key = value  (source)`, in the order of the sections; secrets masked. */
export function describeSettings(settings: Map<string, ConfigSource>, file: string | undefined): string {
  const order = (key: string) => {
    const leaf = leafAt(key.split('.'));
    return leaf ? LEAVES.indexOf(leaf) : LEAVES.length;
  };
  const keys = [...settings.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const lines = keys.map((key) => {
    const { value, source } = settings.get(key) as ConfigSource;
    return [key, shown(key, value), source === 'file' ? `file ${file}` : source];
  });
  const width = (column: number) => Math.max(...lines.map((line) => line[column].length));
  const [keyWidth, valueWidth] = [width(0), Math.min(width(1), 60)];
  return [
    `# ${file ? `config file: ${file}` : 'no config file'}; each key: value (source: flag, env, file or default)`,
    ...lines.map(([key, value, source]) => `${key.padEnd(keyWidth)}  ${value.padEnd(valueWidth)}  (${source})`),
  ].join('\n');
}

function shown(key: string, value: unknown): string {
  const secret = SECRETS.some((name) => key.endsWith(`.${name}`) || key.includes(`.${name}.`));
  if (secret) return JSON.stringify(MASK);
  // A database URL's password.
  if (typeof value === 'string' && key === 'db.url')
    return JSON.stringify(value.replace(/(\/\/[^/:@]*:)[^/@]+@/, `$1${MASK}@`));
  return JSON.stringify(value);
}
