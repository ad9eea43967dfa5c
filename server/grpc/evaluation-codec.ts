import type protobuf from 'protobufjs';
import { protobuf as loadedProtobuf } from './protobuf.js';
import type { BooleanEvaluation, VariantEvaluation } from '../../domain/evaluation/index.js';
import type { AnswerMeta } from '../evaluation/answers.js';

/**
 * EvaluationService's single-flag messages read and written field by field: they are decoded and
 * built on every evaluation, where the generic mapping (codec.ts) costs more than the evaluation
 * itself (docs/decisions.md, "gRPC"). Field numbers are those of proto/flipt/evaluation/evaluation.proto.
 */

/** flipt.evaluation.EvaluationRequest as the REST handler reads its body: the fields sent, camelCase. */
export function decodeEvaluationRequest(buffer: Buffer): Record<string, unknown> {
  const reader = loadedProtobuf().Reader.create(buffer);
  const request: Record<string, unknown> = {};
  const context: Record<string, string> = {};
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        request.requestId = reader.string();
        break;
      case 2:
        request.namespaceKey = reader.string();
        break;
      case 3:
        request.flagKey = reader.string();
        break;
      case 4:
        request.entityId = reader.string();
        break;
      case 5: {
        const end = reader.uint32() + reader.pos;
        let key = '';
        let value = '';
        while (reader.pos < end) {
          const entry = reader.uint32();
          if (entry >>> 3 === 1) key = reader.string();
          else if (entry >>> 3 === 2) value = reader.string();
          else reader.skipType(entry & 7);
        }
        context[key] = value;
        break;
      }
      case 6:
        request.reference = reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  request.context = context;
  return request;
}

const REASONS: Record<string, number> = {
  UNKNOWN_EVALUATION_REASON: 0,
  FLAG_DISABLED_EVALUATION_REASON: 1,
  MATCH_EVALUATION_REASON: 2,
  DEFAULT_EVALUATION_REASON: 3,
};

/** flipt.evaluation.VariantEvaluationResponse; zero values are left out, as protobuf writes them. */
export function variantAnswerMessage(result: VariantEvaluation, meta: AnswerMeta): Buffer {
  const writer = loadedProtobuf().Writer.create();
  if (result.match) writer.uint32(8).bool(true);
  for (const key of result.segmentKeys) writer.uint32(18).string(key);
  const reason = REASONS[result.reason] ?? 0;
  if (reason) writer.uint32(24).int32(reason);
  if (result.variantKey) writer.uint32(34).string(result.variantKey);
  if (result.variantAttachment) writer.uint32(42).string(result.variantAttachment);
  if (meta.requestId) writer.uint32(50).string(meta.requestId);
  if (meta.durationMillis) writer.uint32(57).double(meta.durationMillis);
  timestamp(writer.uint32(66), meta.timestamp);
  if (result.flagKey) writer.uint32(74).string(result.flagKey);
  // Node's protobufjs writer is a BufferWriter: its bytes are a Buffer already.
  return writer.finish() as Buffer;
}

/** flipt.evaluation.BooleanEvaluationResponse (segment_keys is field 7, Flipt v1.61's). */
export function booleanAnswerMessage(result: BooleanEvaluation, meta: AnswerMeta): Buffer {
  const writer = loadedProtobuf().Writer.create();
  if (result.enabled) writer.uint32(8).bool(true);
  const reason = REASONS[result.reason] ?? 0;
  if (reason) writer.uint32(16).int32(reason);
  if (meta.requestId) writer.uint32(26).string(meta.requestId);
  if (meta.durationMillis) writer.uint32(33).double(meta.durationMillis);
  timestamp(writer.uint32(42), meta.timestamp);
  if (result.flagKey) writer.uint32(50).string(result.flagKey);
  for (const key of result.segmentKeys) writer.uint32(58).string(key);
  // Node's protobufjs writer is a BufferWriter: its bytes are a Buffer already.
  return writer.finish() as Buffer;
}

const lastSecond = { text: '', seconds: 0 };

/** An evaluation timestamp (`2026-01-02T03:04:05.123456Z`, answers.ts) as an embedded google.protobuf.Timestamp. */
function timestamp(writer: protobuf.Writer, text: string): void {
  const whole = text.slice(0, 19);
  // Answers within the same second share its parse.
  if (whole !== lastSecond.text) {
    lastSecond.text = whole;
    lastSecond.seconds = Date.parse(`${whole}Z`) / 1000;
  }
  const { seconds } = lastSecond;
  const nanos = text.length > 21 ? Number(text.slice(20, -1).padEnd(9, '0')) : 0;
  writer.fork();
  if (seconds) writer.uint32(8).int64(seconds);
  if (nanos) writer.uint32(16).int32(nanos);
  writer.ldelim();
}
