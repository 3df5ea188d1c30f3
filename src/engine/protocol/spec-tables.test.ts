import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Generation } from '../model/check';
import { A2A_ERROR_NAMES, A2A_ERRORS, LEGACY_DOCUMENT_CODES, type A2AErrorName } from './errors';
import { describeOperation, OPERATIONS, type Operation } from './operations';

/**
 * The tables of operations (operations.ts) and errors (errors.ts) held against the vendored specification
 * (spec/a2a/<version>/): the google.api.http annotations of each a2a.proto for the HTTP+JSON routes and the rpc
 * names, the a2a.json schemas for the JSON-RPC codes before v1.0, and the v1.0 text's tables (its proto defines no
 * errors, and it has no JSON schema).
 */
const ROOT = resolve(__dirname, '../../..');
const read = (version: string, file: string) => readFileSync(resolve(ROOT, 'spec/a2a', version, file), 'utf8');

/** The rpcs of an a2a.proto with their HTTP bindings (`VERB path`), the primary first. */
function protoRpcs(proto: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const chunks = proto.split(/\n\s*rpc\s+/).slice(1);
  for (const c of chunks) {
    const name = /^(\w+)\s*\(/.exec(c)?.[1];
    if (!name) continue;
    const body = c.slice(0, c.search(/\n\s*}\s*(\n|$)/) + 1 || undefined);
    const bindings = [...body.matchAll(/\b(get|post|put|patch|delete):\s*"([^"]+)"/g)].map((m) => `${m[1]!.toUpperCase()} ${m[2]}`);
    out.set(name, bindings);
  }
  return out;
}

/** A proto path template in the operations table's placeholders: `{id=*}`, `{task_id=*}` → `{id}`, a config's `{id=*}` → `{configId}`. */
function v1Path(p: string): string {
  return p
    .replace(/\/tasks\/\{(?:id|task_id)=\*\}/, '/tasks/{id}')
    .replace(/\/pushNotificationConfigs\/\{id=\*\}/, '/pushNotificationConfigs/{configId}')
    .replace('/{tenant}', '');
}
/** v0.x templates name resources: `{name=tasks/*}`, `{parent=tasks/*}`, `{name=tasks/*\/pushNotificationConfigs/*}`. */
function v0Path(p: string): string {
  return p
    .replace(/\{name=tasks\/\*\/pushNotificationConfigs\/\*\}/, 'tasks/{id}/pushNotificationConfigs/{configId}')
    .replace(/\{parent=(tasks?)\/\*\/pushNotificationConfigs\}/, '$1/{id}/pushNotificationConfigs')
    .replace(/\{(?:name|parent)=tasks\/\*\}/, 'tasks/{id}');
}

/** The rpc of each operation in the v0.2.6 / v0.3.0 a2a.proto (JSON-RPC names differ there: the table holds those). */
const V0_PROTO_RPC: Partial<Record<Operation, string>> = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  get: 'GetTask',
  cancel: 'CancelTask',
  subscribe: 'TaskSubscription',
  pushSet: 'CreateTaskPushNotificationConfig',
  pushGet: 'GetTaskPushNotificationConfig',
  pushList: 'ListTaskPushNotificationConfig',
  pushDelete: 'DeleteTaskPushNotificationConfig',
  extendedCard: 'GetAgentCard',
  // list: none (the v0.3 text names tasks/list, its proto has no ListTasks: spec/a2a/REFERENCE.md §10).
};

const OPS = Object.keys(OPERATIONS) as Operation[];

describe('operations.ts against the a2a.proto annotations', () => {
  for (const version of ['v1.0.0', 'v1.0.1']) {
    it(`${version}: every rpc is an operation, with the proto's name, verb and path (and a /{tenant} binding)`, () => {
      const rpcs = protoRpcs(read(version, 'a2a.proto'));
      expect([...rpcs.keys()].sort()).toEqual(OPS.map((op) => OPERATIONS[op].rpc['v1.0']).sort());
      for (const op of OPS) {
        const bindings = rpcs.get(OPERATIONS[op].rpc['v1.0'])!;
        const ours = describeOperation({ generation: 'v1.0', binding: 'HTTP+JSON' }, op);
        const [verb, path] = bindings[0]!.split(' ');
        expect(`${verb} ${v1Path(path!)}`, op).toBe(ours);
        expect(bindings, op).toContain(`${verb} /{tenant}${path}`);
      }
    });
  }

  for (const version of ['v0.2.6', 'v0.3.0']) {
    it(`${version}: the HTTP+JSON routes are the proto's (under /v1)`, () => {
      const rpcs = protoRpcs(read(version, 'a2a.proto'));
      expect([...rpcs.keys()].sort()).toEqual(Object.values(V0_PROTO_RPC).sort());
      const g: Generation = version === 'v0.2.6' ? 'v0.2' : 'v0.3';
      for (const [op, rpc] of Object.entries(V0_PROTO_RPC) as [Operation, string][]) {
        let theirs = v0Path(rpcs.get(rpc)![0]!);
        // The proto's one typo: `{parent=task/*/pushNotificationConfigs}` (task, not tasks); servers route tasks/….
        if (op === 'pushSet') {
          expect(theirs).toBe('POST /v1/task/{id}/pushNotificationConfigs');
          theirs = theirs.replace('/task/', '/tasks/');
        }
        expect(theirs, op).toBe(describeOperation({ generation: g, binding: 'HTTP+JSON' }, op));
      }
    });
  }

  it('the subscribe verb: the proto says GET (tried first), the text POST (the alternative)', () => {
    expect(protoRpcs(read('v1.0.1', 'a2a.proto')).get('SubscribeToTask')![0]).toMatch(/^GET /);
    expect(OPERATIONS.subscribe.restAlternative).toBe('POST');
  });

  it('fails on a route that differs from the proto (the comparison can fail)', () => {
    const rpcs = protoRpcs(
      'service S {\n  rpc GetTask(GetTaskRequest) returns (Task) {\n    option (google.api.http) = {\n      post: "/tasks/{id=*}"\n    };\n  }\n}\n',
    );
    expect(`${rpcs.get('GetTask')![0]!.split(' ')[0]} ${v1Path(rpcs.get('GetTask')![0]!.split(' ')[1]!)}`).not.toBe(
      describeOperation({ generation: 'v1.0', binding: 'HTTP+JSON' }, 'get'),
    );
  });
});

/** Operations whose JSON-RPC name a generation's schema lacks: the name a client of that generation would try (operations.ts). */
const NOT_IN_SCHEMA: Record<string, Operation[]> = {
  legacy: ['pushList', 'pushDelete', 'list', 'extendedCard'],
  // v0.2.6 serves the extended card by a plain GET (§7.10); tasks/list is in no v0.x schema (the v0.3 text names it).
  'v0.2': ['list', 'extendedCard'],
  'v0.3': ['list'],
};

describe('operations.ts against the a2a.json JSON-RPC methods', () => {
  for (const [g, version] of [
    ['legacy', 'v0.1.0'],
    ['v0.2', 'v0.2.6'],
    ['v0.3', 'v0.3.0'],
  ] as [Generation, string][]) {
    it(`${g}: every method the ${version} schema defines is an operation's, and only the known guesses are not`, () => {
      type Defs = Record<string, { properties?: { method?: { const?: unknown } } }>;
      const doc = JSON.parse(read(version, 'a2a.json')) as { definitions?: Defs; $defs?: Defs };
      const methods = Object.values(doc.definitions ?? doc.$defs ?? {}).flatMap((d) =>
        typeof d.properties?.method?.const === 'string' ? [d.properties.method.const] : [],
      );
      expect(methods.length).toBeGreaterThan(5);
      const ours = OPS.map((op) => OPERATIONS[op].rpc[g]);
      expect(methods.filter((m) => !ours.includes(m))).toEqual([]);
      expect(OPS.filter((op) => !methods.includes(OPERATIONS[op].rpc[g]))).toEqual(NOT_IN_SCHEMA[g]);
    });
  }
});

const SCHEMAS: [Generation, string][] = [
  ['legacy', 'v0.1.0'],
  ['v0.2', 'v0.2.6'],
  ['v0.3', 'v0.3.0'],
];

/** The error definitions of an a2a.json: name → code (`code.const`). */
function schemaErrors(version: string): Map<string, number> {
  const doc = JSON.parse(read(version, 'a2a.json')) as { definitions?: Record<string, unknown>; $defs?: Record<string, unknown> };
  const defs = (doc.definitions ?? doc.$defs ?? {}) as Record<string, { properties?: { code?: { const?: unknown } } }>;
  const out = new Map<string, number>();
  for (const [name, d] of Object.entries(defs)) {
    const c = d.properties?.code?.const;
    if (typeof c === 'number' && /Error$/.test(name)) out.set(name, c);
  }
  return out;
}

/** The rows of a markdown table whose first cells match: cells without backticks. */
function mdRows(text: string, first: RegExp): string[][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replace(/`/g, '')),
    )
    .filter((cells) => first.test(cells[0] ?? ''));
}

describe('errors.ts against the schemas and the text', () => {
  for (const [g, version] of SCHEMAS) {
    it(`${g}: the JSON-RPC codes are the ${version} a2a.json error definitions`, () => {
      const schema = schemaErrors(version);
      const ours = new Map(
        A2A_ERROR_NAMES.flatMap((n) => {
          const m = A2A_ERRORS[n][g];
          return m && m.source === 'schema' ? [[m.name, m.code] as const] : [];
        }),
      );
      expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(schema));
      // What only the text defines is in the text's §8 table, and not in the schema.
      const doc = read(version, 'specification.md');
      for (const n of A2A_ERROR_NAMES) {
        const m = A2A_ERRORS[n][g];
        if (m?.source !== 'text') continue;
        expect(schema.has(m.name), `${m.name} is in the schema`).toBe(false);
        expect(
          mdRows(doc, /^-32\d{3}$/).some((r) => Number(r[0]) === m.code && r[1] === m.name),
          m.name,
        ).toBe(true);
      }
    });
  }

  const statusCode = (s: string) => Number(/^(\d{3})/.exec(s)?.[1]);
  for (const version of ['v1.0.0', 'v1.0.1']) {
    it(`v1.0: the ${version} §5.4 mapping table and §9.5 standard codes`, () => {
      const doc = read(version, 'specification.md');
      const mapping = mdRows(doc, /^[A-Z]\w+Error$/).filter((r) => /^-32\d{3}$/.test(r[1] ?? '') && r.length === 4);
      expect(mapping.length).toBe(9);
      const old = version === 'v1.0.0';
      const ours = A2A_ERROR_NAMES.flatMap((n) => {
        const m = A2A_ERRORS[n]['v1.0'];
        return m?.reason ? [[m.name, String(m.code), (old && m.grpc100) || m.grpc, (old && m.http100) || m.http]] : [];
      });
      expect(ours).toEqual(mapping.map((r) => [r[0], r[1], r[2], statusCode(r[3]!)]));
      const standard = mdRows(doc, /^-32[67]\d\d$/).filter((r) => /Error$/.test(r[1] ?? ''));
      const stdOurs = A2A_ERROR_NAMES.flatMap((n) => {
        const m = A2A_ERRORS[n]['v1.0'];
        return m && !m.reason ? [[String(m.code), m.name]] : [];
      });
      expect(stdOurs).toEqual(standard.map((r) => [r[0], r[1]]));
    });
  }

  it("legacy: the codes only v0.1.0's document lists (not its schema) are its §8.2 rows", () => {
    const schema = schemaErrors('v0.1.0');
    const rows = mdRows(read('v0.1.0', 'specification.md'), /^-32\d{3}$/);
    for (const [name, code] of Object.entries(LEGACY_DOCUMENT_CODES)) {
      expect(
        rows.some((r) => Number(r[0]) === code && r[1] === `${name}Error`),
        name,
      ).toBe(true);
      expect(schema.has(`${name}Error`), name).toBe(false);
    }
  });

  it('v1.0: every ErrorInfo reason is the name in UPPER_SNAKE_CASE without "Error" (§10.6, §11.6)', () => {
    const snake = (s: string) =>
      s
        .replace(/Error$/, '')
        .replace(/([a-z])([A-Z])/g, '$1_$2')
        .toUpperCase();
    for (const n of A2A_ERROR_NAMES) {
      const m = A2A_ERRORS[n]['v1.0'];
      if (m?.reason) expect(m.reason, n).toBe(snake(m.name));
    }
    expect(snake('TaskNotFoundError')).toBe('TASK_NOT_FOUND');
  });

  it('names every error the way the brief of the table promises (no name left without a generation)', () => {
    for (const n of A2A_ERROR_NAMES) expect(Object.keys(A2A_ERRORS[n as A2AErrorName]).length, n).toBeGreaterThan(0);
  });
});
