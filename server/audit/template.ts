/**
 * Flipt's webhook templates are Go text/template over the audit event, with a `toJson` function.
 * Ensign reads the forms they are written with: `{{ .Type }}`, `{{ .Metadata.Actor.email }}`,
 * `{{ toJson .Payload }}` and `{{ .Payload | toJson }}`; anything else is refused when the config loads.
 */
export type Template = (event: Record<string, unknown>) => string;

const EXPRESSION = /{{-?\s*(.*?)\s*-?}}/g;
const FIELD = /^\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)?$/;

export function compileTemplate(text: string, where: string): Template {
  const parts: (string | ((event: Record<string, unknown>) => string))[] = [];
  let last = 0;
  for (const match of text.matchAll(EXPRESSION)) {
    parts.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    parts.push(expression(match[1], where));
  }
  parts.push(text.slice(last));
  return (event) => parts.map((part) => (typeof part === 'string' ? part : part(event))).join('');
}

function expression(source: string, where: string): (event: Record<string, unknown>) => string {
  const piped = /^(\S+)\s*\|\s*toJson$/.exec(source);
  const called = /^toJson\s+(\S+)$/.exec(source);
  const path = piped?.[1] ?? called?.[1] ?? source;
  const field = FIELD.exec(path);
  if (!field)
    throw new Error(
      `${where}: "{{ ${source} }}" is not supported (use {{ .Field }}, {{ toJson .Field }} or {{ .Field | toJson }})`,
    );
  const names = field[1] ? field[1].split('.') : [];
  const json = piped !== null || called !== null;
  return (event) => {
    const value = names.reduce<unknown>((at, name) => lookup(at, name), event);
    if (json) return JSON.stringify(value ?? null);
    if (value === undefined || value === null) return '<no value>';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
}

/** Go's exported field `Type` is the event's `type`; map keys (the actor's) are looked up as written. */
function lookup(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (name in record) return record[name];
  return record[name[0].toLowerCase() + name.slice(1)];
}
