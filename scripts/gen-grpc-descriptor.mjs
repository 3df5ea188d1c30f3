#!/usr/bin/env node
/**
 * Generates src/grpc/a2a-descriptor.json: the v1.0.1 a2a.proto (spec/a2a/v1.0.1/a2a.proto) with the google/rpc
 * status and error details it is answered with, as a protobufjs JSON descriptor. The Node gRPC transport
 * (src/grpc) and the CLI bundle load this JSON instead of parsing .proto files at run time, so the packed CLI
 * needs no .proto file. Options are left out (google.api.http annotations: no call needs them) except field_behavior REQUIRED, which
 * the ProtoJSON reader uses (src/grpc/protojson.ts).
 *
 * Usage: node scripts/gen-grpc-descriptor.mjs [--check]   (--check: exit 1 when the committed file is stale)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');
const googleProtos = dirname(require.resolve('google-proto-files/package.json'));
const OUT = join(root, 'src/grpc/a2a-descriptor.json');

const KEEP = new Set(['Any', 'Duration', 'Empty', 'ListValue', 'NullValue', 'Struct', 'Timestamp', 'Value']);

export function buildDescriptor() {
  const r = new protobuf.Root();
  r.resolvePath = (origin, target) => {
    if (target === 'google/protobuf/descriptor.proto') return join(dirname(require.resolve('protobufjs/package.json')), target);
    if (target.startsWith('google/protobuf/')) return target; // protobufjs' bundled well-known types
    if (target.startsWith('google/')) return join(googleProtos, target);
    return resolve(origin ? dirname(origin) : root, target);
  };
  r.loadSync([join(root, 'spec/a2a/v1.0.1/a2a.proto'), 'google/rpc/status.proto', 'google/rpc/error_details.proto'], { keepCase: false });
  const json = r.toJSON({ keepComments: false });
  const strip = (node) => {
    if (!node || typeof node !== 'object') return node;
    delete node.options;
    delete node.comment;
    if (node.nested) {
      delete node.nested.api; // google.api: annotations only
      for (const v of Object.values(node.nested)) strip(v);
    }
    if (node.fields)
      for (const f of Object.values(node.fields)) {
        // Kept: REQUIRED (proto3 cannot send "present but empty": the reader prints those fields' defaults).
        const required = f.options?.['(google.api.field_behavior)'] === 'REQUIRED';
        strip(f);
        if (required) f.options = { '(google.api.field_behavior)': 'REQUIRED' };
      }
    if (node.methods) for (const m of Object.values(node.methods)) strip(m);
    if (node.oneofs) for (const o of Object.values(node.oneofs)) strip(o);
    return node;
  };
  // google.protobuf: only the well-known types the messages use (descriptor.proto came in for the options).
  const wkt = json.nested.google.nested.protobuf.nested;
  for (const k of Object.keys(wkt)) if (!KEEP.has(k)) delete wkt[k];
  return `${JSON.stringify(strip(json))}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = buildDescriptor();
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error('src/grpc/a2a-descriptor.json is stale: run node scripts/gen-grpc-descriptor.mjs');
      process.exit(1);
    }
  } else writeFileSync(OUT, text);
}
