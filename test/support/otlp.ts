import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  service: string;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans: {
      spans: { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes?: KeyValue[] }[];
    }[];
  }[];
}

/**
 * An OTLP/HTTP trace receiver: takes `POST /v1/traces` in the JSON encoding, as a collector does,
 * and keeps the spans. Anything else, or a body that is not an export request, is answered 400.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly headers: Record<string, string | string[] | undefined>[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (
          request.method !== 'POST' ||
          request.url !== '/v1/traces' ||
          !request.headers['content-type']?.includes('json')
        ) {
          response.writeHead(400).end();
          return;
        }
        try {
          this.receive(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest);
          this.headers.push(request.headers);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          response.writeHead(400).end();
        }
      });
    });
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(body: ExportRequest): void {
    for (const resourceSpans of body.resourceSpans) {
      const service = attributesOf(resourceSpans.resource?.attributes)['service.name'] as string;
      for (const scope of resourceSpans.scopeSpans) {
        for (const span of scope.spans) {
          this.spans.push({
            name: span.name,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            attributes: attributesOf(span.attributes),
            service,
          });
        }
      }
    }
  }
}

function attributesOf(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, attributeValue(value)]));
}

function attributeValue(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(attributeValue);
  return (
    value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue)
  );
}
