/**
 * Row codecs for what differs between SQLite and PostgreSQL.
 * Booleans: SQLite stores 0/1, PostgreSQL a real boolean; both are written as
 * they come and read back through `toBool`. Timestamps are ISO-8601 UTC text in
 * both dialects (microsecond precision, as Flipt rounds them), so they sort
 * lexically and round-trip exactly. JSON is stored as text.
 */
export function toBool(value: number | boolean | bigint | null | undefined): boolean {
  return value === true || value === 1 || value === 1n;
}

export type Dialect = 'sqlite' | 'postgres';

export function fromBool(dialect: Dialect, value: boolean): number | boolean {
  return dialect === 'sqlite' ? (value ? 1 : 0) : value;
}

/** Current time as an RFC 3339 UTC string with microseconds, strictly increasing within this process. */
let lastMicros = 0;
export function nowTimestamp(): string {
  let micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  if (micros <= lastMicros) micros = lastMicros + 1;
  lastMicros = micros;
  return microsToTimestamp(micros);
}

export function microsToTimestamp(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // yyyy-mm-ddThh:mm:ss.mmmZ
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}
