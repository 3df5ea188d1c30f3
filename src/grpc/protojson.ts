/**
 * ProtoJSON (https://protobuf.dev/programming-guides/json/) for the messages of the spec's a2a.proto, over
 * protobufjs reflection: protobufjs' own toObject/fromObject do not map the well-known types (Timestamp as an
 * RFC 3339 string, Struct/Value as plain JSON, Any with `@type`), which the A2A messages use (metadata, data parts,
 * timestamps) and which the engine judges with the v1.0 JSON shapes.
 */
import protobuf from 'protobufjs';
import descriptor from './a2a-descriptor.json';

const root: protobuf.Root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
export const A2A_SERVICE = root.lookupService('lf.a2a.v1.A2AService');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const LONGS = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** int64 and friends as ProtoJSON strings (protobufjs decodes them as Long objects when `long` is installed). */
function longString(v: unknown): string {
  if (isObj(v) && typeof v.low === 'number' && typeof v.high === 'number') {
    const big = (BigInt(v.high >>> 0) << 32n) + BigInt(v.low >>> 0);
    return (v.unsigned === true ? big : BigInt.asIntN(64, big)).toString();
  }
  return String(v);
}

function timestampJson(m: Record<string, unknown>): string {
  const seconds = Number(longString(m.seconds ?? 0));
  const nanos = Number(m.nanos ?? 0);
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return `${seconds}s`;
  const iso = d.toISOString().replace(/\.\d{3}Z$/, '');
  const frac = nanos
    ? `.${String(nanos)
        .padStart(9, '0')
        .replace(/0{3}$|0{6}$/, '')}`
    : '';
  return `${iso}${frac}Z`;
}

function valueJson(m: Record<string, unknown>): Json {
  if (hasOwn(m, 'nullValue')) return null;
  if (hasOwn(m, 'numberValue')) return Number(m.numberValue);
  if (hasOwn(m, 'stringValue')) return String(m.stringValue);
  if (hasOwn(m, 'boolValue')) return m.boolValue === true;
  if (hasOwn(m, 'structValue') && isObj(m.structValue)) return structJson(m.structValue);
  if (hasOwn(m, 'listValue') && isObj(m.listValue)) return listJson(m.listValue);
  return null;
}
const structJson = (m: Record<string, unknown>): Json => {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(isObj(m.fields) ? m.fields : {})) if (isObj(v)) out[k] = valueJson(v);
  return out;
};
const listJson = (m: Record<string, unknown>): Json => (Array.isArray(m.values) ? m.values.map((v) => (isObj(v) ? valueJson(v) : null)) : []);
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Any: `{"@type": url, ...the message's fields}` when the type is known here, else its bytes in base64. */
function anyJson(m: Record<string, unknown>): Json {
  const url = typeof m.type_url === 'string' ? m.type_url : typeof m.typeUrl === 'string' ? m.typeUrl : '';
  const value = m.value instanceof Uint8Array ? m.value : new Uint8Array();
  const t = lookupType(url.slice(url.lastIndexOf('/') + 1));
  if (!t) return { '@type': url, value: protobuf.util.base64.encode(value, 0, value.length) };
  const inner = messageJson(t, t.decode(value) as unknown as Record<string, unknown>);
  return isObj(inner) ? { '@type': url, ...(inner as Record<string, Json>) } : { '@type': url, value: inner };
}

export function lookupType(name: string): protobuf.Type | undefined {
  if (!name) return undefined;
  try {
    const t = root.lookupType(name);
    return t instanceof protobuf.Type ? t : undefined;
  } catch {
    return undefined;
  }
}

function scalarJson(f: protobuf.Field, v: unknown): Json {
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Enum) return typeof v === 'number' ? (rt.valuesById[v] ?? v) : String(v);
  if (rt instanceof protobuf.Type) return isObj(v) ? messageJson(rt, v) : null;
  if (LONGS.has(f.type)) return longString(v);
  if (f.type === 'bytes') return v instanceof Uint8Array ? protobuf.util.base64.encode(v, 0, v.length) : String(v);
  if ((f.type === 'double' || f.type === 'float') && typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v as Json;
}

/**
 * A REQUIRED field (google.api.field_behavior) without presence that is not on the wire holds its default: printed
 * (ProtoJSON's "emit default values" for exactly these fields), since proto3 cannot send "present but empty" and
 * the v1.0 JSON shapes say e.g. `nextPageToken` MUST be present ("" on the last page).
 */
function requiredDefault(f: protobuf.Field): Json | undefined {
  if (f.options?.['(google.api.field_behavior)'] !== 'REQUIRED' || f.partOf || f.resolvedType instanceof protobuf.Type) return undefined;
  if (f.repeated) return f.map ? {} : [];
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Enum) return rt.valuesById[0] ?? 0;
  if (f.type === 'string' || f.type === 'bytes') return '';
  if (f.type === 'bool') return false;
  return LONGS.has(f.type) ? '0' : 0;
}

/** A decoded message as ProtoJSON: default-valued fields left out, well-known types in their JSON forms. */
function messageJson(t: protobuf.Type, m: Record<string, unknown>): Json {
  switch (t.fullName) {
    case '.google.protobuf.Timestamp':
      return timestampJson(m);
    case '.google.protobuf.Struct':
      return structJson(m);
    case '.google.protobuf.Value':
      return valueJson(m);
    case '.google.protobuf.ListValue':
      return listJson(m);
    case '.google.protobuf.Any':
      return anyJson(m);
    case '.google.protobuf.Duration':
      return `${longString(m.seconds ?? 0)}${m.nanos ? `.${String(m.nanos).padStart(9, '0')}` : ''}s`;
  }
  const out: Record<string, Json> = {};
  for (const f of t.fieldsArray) {
    f.resolve();
    if (!hasOwn(m, f.name)) {
      const d = requiredDefault(f);
      if (d !== undefined) out[f.name] = d;
      continue;
    }
    const v = m[f.name];
    if (v === undefined || v === null) continue;
    if (f.map) {
      if (!isObj(v) || !Object.keys(v).length) continue;
      const o: Record<string, Json> = {};
      for (const [k, x] of Object.entries(v)) o[k] = scalarJson(f, x);
      out[f.name] = o;
    } else if (f.repeated) {
      if (!Array.isArray(v) || !v.length) continue;
      out[f.name] = v.map((x) => scalarJson(f, x));
    } else {
      // proto3 without presence: a default value is not on the wire (decode leaves it on the prototype).
      out[f.name] = scalarJson(f, v);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------- JSON -> message

function valueObject(v: unknown): Record<string, unknown> {
  if (v === null || v === undefined) return { nullValue: 0 };
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(valueObject) } };
  return { structValue: structObject(v) };
}
const structObject = (v: unknown): Record<string, unknown> => ({
  fields: Object.fromEntries(Object.entries(isObj(v) ? v : {}).map(([k, x]) => [k, valueObject(x)])),
});

function timestampObject(v: unknown): Record<string, unknown> {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw new Error(`not an RFC 3339 timestamp: ${JSON.stringify(v)}`);
  const frac = typeof v === 'string' ? /\.(\d{1,9})/.exec(v)?.[1] : undefined;
  return { seconds: Math.floor(ms / 1000), nanos: frac ? Number(frac.padEnd(9, '0')) : 0 };
}

function scalarObject(f: protobuf.Field, v: unknown): unknown {
  const rt = f.resolvedType;
  return rt instanceof protobuf.Type ? messageObject(rt, v) : v;
}

/** ProtoJSON to the plain object protobufjs' fromObject takes (the well-known types turned back into messages). */
function messageObject(t: protobuf.Type, v: unknown): unknown {
  switch (t.fullName) {
    case '.google.protobuf.Timestamp':
      return timestampObject(v);
    case '.google.protobuf.Struct':
      return structObject(v);
    case '.google.protobuf.Value':
      return valueObject(v);
    case '.google.protobuf.ListValue':
      return { values: Array.isArray(v) ? v.map(valueObject) : [] };
  }
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const f of t.fieldsArray) {
    f.resolve();
    const x = v[f.name];
    if (x === undefined || x === null) continue;
    if (f.map) out[f.name] = Object.fromEntries(Object.entries(isObj(x) ? x : {}).map(([k, y]) => [k, scalarObject(f, y)]));
    else if (f.repeated) out[f.name] = Array.isArray(x) ? x.map((y) => scalarObject(f, y)) : x;
    else out[f.name] = scalarObject(f, x);
  }
  return out;
}

/** Encodes a ProtoJSON request as `t` (throws when it does not fit the message: our own request is wrong). */
export function encodeJson(t: protobuf.Type, json: unknown): Uint8Array {
  const obj = messageObject(t, json);
  const err = t.verify(t.fromObject(isObj(obj) ? obj : {}));
  if (err) throw new Error(`${t.name}: ${err}`);
  return t.encode(t.fromObject(isObj(obj) ? obj : {})).finish();
}

/** Decodes bytes as `t` into ProtoJSON (throws when the bytes are not that message). */
export function decodeJson(t: protobuf.Type, bytes: Uint8Array): Json {
  return messageJson(t, t.decode(bytes) as unknown as Record<string, unknown>);
}
