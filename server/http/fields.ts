/** The named field of parsed request parts (path parameters, query, body) when it is a string; undefined otherwise. */
export function textField(fields: unknown, name: string): string | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const value: unknown = Reflect.get(fields, name);
  return typeof value === 'string' ? value : undefined;
}
