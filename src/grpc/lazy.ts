import type { GrpcTransport } from '../engine/ports';

/**
 * gRPC through @grpc/grpc-js (transport.ts), loaded on the first call so commands that never speak gRPC do not pay
 * for it. Kept out of src/hosts/node.ts so the library (src/package) does not reach grpc-js or protobufjs.
 */
export function lazyGrpc(): GrpcTransport {
  let t: Promise<GrpcTransport> | undefined;
  const get = () => (t ??= import('./transport').then((m) => m.createGrpcTransport()));
  return {
    unary: async (req) => (await get()).unary(req),
    serverStream: async (req, onMessage) => (await get()).serverStream(req, onMessage),
  };
}
