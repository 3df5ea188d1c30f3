/** The text of `a2a-interop --help` (and of a usage error). */
import { TOOL } from '../engine/report/build';
import { OAUTH_USAGE } from './oauth';

export const USAGE = `a2a-interop ${TOOL.version}: A2A conformance testing from the command line

Usage:
  a2a-interop run <agent-url> [options]
  a2a-interop checks [--format text|json|markdown]
  a2a-interop explain <check-id>
  a2a-interop run-many <file> [options]
  a2a-interop merge <dir>... [--out-dir DIR]
  a2a-interop mcp [--report-dir DIR]    MCP server on stdio, for AI assistants (see README); full reports go to DIR
  a2a-interop tap <agent-url> [--port N] [--record DIR] [--fail-on client|agent|any] [-- <command>]
                                        a recording, judging relay between your A2A client and the agent (tap --help)
  a2a-interop --help | --version

<agent-url> is the agent's base URL, a base URL with a path, or the card URL itself.

Options for run:
  --format json|markdown|junit|html|sarif   report format (default json); several, comma-separated, with --out-dir
  --out FILE                          write the report to FILE (default: stdout)
  --out-dir DIR                       write a2a-report.<ext> per format to DIR (e.g. a2a-report.sarif, a2a-report.junit.xml)
  --badge FILE                        also write a badge SVG of the level ("A2A | full", "A2A | not assessed: unreachable")
  --baseline FILE                     compare with a previous JSON report: the report gains a comparison section,
                                      and any regression, new failure or lower level exits 1
  --header "Name: value"              send this header on every request to the agent (repeatable; at most one
                                      credential header, e.g. Authorization or X-API-Key)
  --bearer TOKEN                      send Authorization: Bearer TOKEN (or set A2A_INTEROP_BEARER)
  --api-key KEY                       API key, sent where the card's apiKey scheme says (or A2A_INTEROP_API_KEY)
${OAUTH_USAGE}
  --peer URL                          a second agent for two-agent interop checks
  --jwks FILE                         public keys (a JWKS file) trusted to verify the card's signatures
  --webhook-url URL                   public address that forwards to our push webhook inbox (for an agent that
                                      cannot reach this machine's 127.0.0.1); addresses are URL/inbox/<token>
  --webhook-port N                    port of the inbox (default: ephemeral; fix it for --webhook-url forwarding)
  --task-timeout SECONDS              per-task timeout (default 60, as the conformance procedure says): a task or
                                      stream that reaches no terminal state within it fails (alias: --timeout)
  --binding jsonrpc|http+json|grpc    test this binding when the card declares several (gRPC: v1.0 interfaces)
  --protocol-version 1.0|0.3          test the card's interfaces of this version (e.g. a v1.0 card's 0.3 compat ones)
  --skill ID                          exercise only this skill (repeatable; default: every skill in the card)
  --only CHECK-ID                     run only this check (repeatable): results, but no agent level
  --min-level full|partial|minimal    level needed for exit code 0 (default minimal)
  --fail-on level|regression|never    what exits 1: level (default): below --min-level, not assessed, or with
                                      --baseline a regression; regression: only a regression against --baseline;
                                      never: reports only (exit 2 still means a usage error or our failure)
  --sarif-category NAME               code-scanning category of the SARIF (automationDetails.id; default: from the
                                      agent URL, a2a-interop/<host>/<path>)
  --quiet                             no progress on stderr

Options for run-many (<file>: URLs one per line with # comments, or a JSON list / registry export whose
headers reference environment variables, e.g. {"url": "...", "headers": {"Authorization": "Bearer \${TOKEN}"}}):
  --out-dir DIR                       where reports and the summary go (default a2a-fleet)
  --format LIST                       formats per agent besides json (comma-separated)
  --concurrency N                     agents at once (default 4)
  --shard I/N                         run only shard I of N (deterministic split; combine with merge)
  --baseline-dir DIR                  a previous run-many output: trend per agent, and exit 1 on a regression
  --deadline SECONDS                  overall time per agent before it is stopped (default 600)
  --task-timeout, --only, --min-level, --fail-on, --quiet   as for run (the per-task timeout also caps request and stream waits)

Options for merge: --out-dir DIR (default a2a-fleet), --quiet.

Exit codes: 0 level meets --min-level (run-many: every agent, no regression), 1 it does not (or a regression
against --baseline / --baseline-dir, or no level: --only, not assessed), 2 usage error or a failure of this tool,
130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: the partial reports are written, marked incomplete, with no level.
Credentials are never written to the report.`;
