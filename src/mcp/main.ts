/**
 * Entry point of the MCP server: `node --import tsx src/mcp/main.ts` (or `a2a-interop mcp`). See server.ts.
 */
import { serveStdio } from './server';

serveStdio({ quiet: process.argv.includes('--quiet') }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`a2a-interop mcp failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 2;
  },
);
