import type protobuf from 'protobufjs';
import { protobuf as loadedProtobuf } from './protobuf.js';

/**
 * Between Flipt's REST JSON (what the stores, the engine's answers and the REST routes speak) and
 * protobuf messages, by the proto3 JSON mapping grpc-gateway applies in Flipt: lowerCamelCase names,
 * enums by name, `google.protobuf.Timestamp` as RFC 3339 text, `Struct`/`Value` as plain JSON,
 * `float` fields at float32's shortest decimal. So a gRPC call hands a REST handler the very message
 * the gateway would have built, and answers with what its JSON answer says.
 */

const TIMESTAMP = '.google.protobuf.Timestamp';
const STRUCT = '.google.protobuf.Struct';
const VALUE = '.google.protobuf.Value';
const LIST_VALUE = '.google.protobuf.ListValue';
const EMPTY = '.google.protobuf.Empty';

const TO_OBJECT: protobuf.IConversionOptions = { enums: String, longs: Number, bytes: Buffer, defaults: false };

/** A decoded request as the REST handlers read a JSON body: only the fields the client set. */
export function decodeJson(type: protobuf.Type, buffer: Buffer): Record<string, unknown> {
  return messageToJson(type, type.toObject(type.decode(buffer), TO_OBJECT));
}

/** A REST answer (a JSON value, or its text) encoded as the method's response message. */
export function encodeJson(type: protobuf.Type, json: unknown): Buffer {
  const value = typeof json === 'string' ? JSON.parse(json) : json;
  return Buffer.from(type.encode(type.fromObject(jsonToMessage(type, value ?? {}))).finish());
}

function messageToJson(type: protobuf.Type, object: Record<string, unknown>): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const value = object[field.name];
    if (value === undefined || value === null) continue;
    const resolved = field.resolvedType;
    if (!(resolved instanceof loadedProtobuf().Type)) {
      json[field.name] =
        field.type === 'float' ? (field.repeated ? (value as number[]).map(float32) : float32(value as number)) : value;
      continue;
    }
    const convert = (item: unknown) => fieldToJson(resolved, item as Record<string, unknown>);
    if (field.map) {
      json[field.name] = Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, convert(item)]));
    } else json[field.name] = field.repeated ? (value as unknown[]).map(convert) : convert(value);
  }
  return json;
}

function fieldToJson(type: protobuf.Type, object: Record<string, unknown>): unknown {
  switch (type.fullName) {
    case TIMESTAMP:
      return rfc3339(Number(object.seconds ?? 0), Number(object.nanos ?? 0));
    case STRUCT:
      return structToJson(object);
    case VALUE:
      return valueToJson(object);
    default:
      return messageToJson(type, object);
  }
}

function structToJson(object: Record<string, unknown>): Record<string, unknown> {
  const fields = (object.fields ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, valueToJson(value)]));
}

function valueToJson(value: Record<string, unknown>): unknown {
  if (value.structValue) return structToJson(value.structValue as Record<string, unknown>);
  if (value.listValue) {
    const values = ((value.listValue as { values?: Record<string, unknown>[] }).values ?? []).map(valueToJson);
    return values;
  }
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.numberValue !== undefined) return value.numberValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return null;
}

function jsonToMessage(type: protobuf.Type, json: Record<string, unknown>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const value = json[field.name];
    if (value === undefined || value === null) continue;
    const resolved = field.resolvedType;
    if (!(resolved instanceof loadedProtobuf().Type)) {
      object[field.name] = value;
      continue;
    }
    const convert = (item: unknown) => jsonToField(resolved, item);
    if (field.map) {
      object[field.name] = Object.fromEntries(
        Object.entries(value as object).map(([key, item]) => [key, convert(item)]),
      );
    } else object[field.name] = field.repeated ? (value as unknown[]).map(convert) : convert(value);
  }
  return object;
}

function jsonToField(type: protobuf.Type, value: unknown): unknown {
  switch (type.fullName) {
    case TIMESTAMP:
      return timestamp(value as string);
    case STRUCT:
      return jsonToStruct(value as Record<string, unknown>);
    case VALUE:
      return jsonToValue(value);
    case LIST_VALUE:
      return { values: (value as unknown[]).map(jsonToValue) };
    case EMPTY:
      return {};
    default:
      return jsonToMessage(type, value as Record<string, unknown>);
  }
}

function jsonToStruct(json: Record<string, unknown>): Record<string, unknown> {
  return { fields: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, jsonToValue(value)])) };
}

function jsonToValue(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return { nullValue: 0 };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(jsonToValue) } };
  return { structValue: jsonToStruct(value as Record<string, unknown>) };
}

/** RFC 3339 text as a Timestamp, to the nanosecond the text gives. */
export function timestamp(text: string): { seconds: number; nanos: number } {
  const match = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  const whole = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!match || Number.isNaN(whole)) throw new Error(`not an RFC 3339 timestamp: ${text}`);
  return { seconds: Math.floor(whole / 1000), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

/** A Timestamp as Flipt's gateway writes it: UTC, fractional seconds in groups of three digits, none when zero. */
export function rfc3339(seconds: number, nanos: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  let fraction = String(nanos).padStart(9, '0');
  while (fraction.endsWith('000')) fraction = fraction.slice(0, -3);
  return `${base}.${fraction}Z`;
}

/** A float32 read back at the shortest decimal that is the same float32 (Go's JSON for a float32: 33.3, not 33.29999923706055). */
export function float32(value: number): number {
  const single = Math.fround(value);
  for (let digits = 1; digits < 10; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return single;
}
