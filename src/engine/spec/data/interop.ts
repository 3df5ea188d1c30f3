import type { CheckSpec, GenerationSpec, SpecSentence } from '../types';

/**
 * What each interop check enforces, per generation, quoted from the specification (see ../types.ts).
 * This file is a list of independent entries, one per check id (long by nature: each entry quotes its sentences
 * per generation); it holds no judging logic. Entries are looked up by id (the run order is src/engine/checks/index.ts).
 */

// ---------------------------------------------------------------------------------------------- CORS (outside A2A)

const CORS_NOTE =
  'No A2A release mentions CORS, browsers or cross-origin requests, and none cites the Fetch Standard: browser readiness is an advisory (shown, never lowers the level). The Fetch sentences say what a browser needs.';

const fetchIntro: SpecSentence = {
  doc: 'fetch',
  section: '§3.2 CORS protocol',
  quote: 'It is layered on top of HTTP and allows responses to declare they can be shared with other origins.',
  keyword: 'none',
};
const fetchPreflight: SpecSentence = {
  doc: 'fetch',
  section: '§3.2.2 HTTP requests',
  quote: 'A CORS-preflight request is a CORS request that checks to see if the CORS protocol is understood.',
  keyword: 'none',
};
const fetchAllowOrigin: SpecSentence = {
  doc: 'fetch',
  section: '§3.2.3 HTTP responses',
  quote:
    'Indicates whether the response can be shared, via returning the literal value of the `Origin` request header (which can be `null`) or `*` in a response.',
  keyword: 'none',
};
const fetchAllowHeaders: SpecSentence = {
  doc: 'fetch',
  section: '§3.2.3 HTTP responses (Access-Control-Allow-Headers)',
  quote: "Indicates which headers are supported by the response's URL for the purposes of the CORS protocol.",
  keyword: 'none',
};
const fetchSafelistedMethod: SpecSentence = {
  doc: 'fetch',
  section: '§2.2.1 Methods',
  quote: 'A CORS-safelisted method is a method that is `GET`, `HEAD`, or `POST`.',
  keyword: 'none',
};
const fetchOkStatus: SpecSentence = {
  doc: 'fetch',
  section: '§2.2.3 Statuses',
  quote: 'An ok status is a status in the range 200 to 299, inclusive.',
  keyword: 'none',
};
const v1VersionAsParam: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§3.6.1 Client Responsibilities',
  quote: 'Clients MAY provide the A2A-Version as a request parameter instead of a header.',
  keyword: 'MAY',
};

const cors = (sentences: SpecSentence[], v1Extra: SpecSentence[], note = CORS_NOTE): CheckSpec => ({
  legacy: { sentences, note },
  'v0.2': { sentences, note },
  'v0.3': { sentences, note },
  'v1.0': { sentences: [...sentences, ...v1Extra], note },
});

const gen = (g: GenerationSpec) => g;

// ---------------------------------------------------------------------------------------------- shared A2A sentences

const cardAvailable = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0' | 'a2a-v1.0.1', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'A2A Servers MUST make an Agent Card available.',
  keyword: 'MUST',
});
const wellKnownRecommended = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§5.3 Recommended Location',
  quote: "If using the well-known URI strategy, the recommended location for an agent's Agent Card is:",
  keyword: 'none',
});
const PEER_NOTE =
  "The sentence binds the peer agent, not the agent under test: a peer without a usable card says nothing about the tested agent's conformance, so against the tested agent this is advisory (report it on the peer target). The well-known location itself is only recommended.";

const jsonRpcOnly = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6'): SpecSentence => ({
  doc,
  section: '§3.2 Data Format',
  quote: 'A2A uses JSON-RPC 2.0 as the payload format for all requests and responses (excluding the SSE stream wrapper).',
  keyword: 'none',
});

// ---------------------------------------------------------------------------------------------- checks

export const SPEC: Record<string, CheckSpec> = {
  'interop.cors.card': cors([fetchIntro, fetchAllowOrigin, fetchSafelistedMethod], [v1VersionAsParam]),
  'interop.cors.rpc': cors([fetchIntro, fetchPreflight, fetchOkStatus, fetchAllowOrigin, fetchAllowHeaders, fetchSafelistedMethod], [v1VersionAsParam]),
  'interop.cors.stream': cors([fetchIntro, fetchPreflight, fetchOkStatus, fetchAllowOrigin, fetchAllowHeaders, fetchSafelistedMethod], [v1VersionAsParam]),

  'interop.bindings': {
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.2 Additional Interfaces',
          quote: 'Transport declaration: Each AgentInterface MUST accurately declare the transport protocol available at its specified URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§3.4.1 Functional Equivalence Requirements',
          quote: 'When an agent supports multiple transports, all supported transports MUST:',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§3.4.1 Functional Equivalence Requirements',
          quote: 'Identical Functionality: Provide the same set of operations and capabilities.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§3.4.1 Functional Equivalence Requirements',
          quote: 'Consistent Behavior: Return semantically equivalent results for the same requests.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§11.1.4 Multi-Transport Compliance',
          quote: 'If an agent supports additional transports (gRPC, HTTP+JSON), it MUST:',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§11.1.4 Multi-Transport Compliance',
          quote: 'Functional equivalence: Provide identical functionality across all supported transports.',
          keyword: 'none',
        },
      ],
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.3.1 Supported Interfaces Declaration',
          quote: 'Each interface MUST accurately declare its transport protocol and URL',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.1 Functional Equivalence Requirements',
          quote: 'When an agent supports multiple protocols, all supported protocols MUST:',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.1 Functional Equivalence Requirements',
          quote: 'Identical Functionality: Provide the same set of operations and capabilities',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.1 Functional Equivalence Requirements',
          quote: 'Consistent Behavior: Return semantically equivalent results for the same requests',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.6.2 Server Responsibilities',
          quote: 'Agents CAN expose multiple interfaces for the same transport with different versions under the same or different URLs.',
          keyword: 'none',
        },
      ],
      note: 'An interface listed with protocolVersion "0.3" is judged by v0.3 rules (called without A2A-Version, which §3.6.2 says agents MUST read as 0.3).',
    }),
  },

  'interop.peer.card': {
    legacy: gen({ sentences: [cardAvailable('a2a-v0.1.0', '§5.1 Purpose'), wellKnownRecommended('a2a-v0.1.0')], level: 'MAY', note: PEER_NOTE }),
    'v0.2': gen({ sentences: [cardAvailable('a2a-v0.2.6', '§5.1 Purpose'), wellKnownRecommended('a2a-v0.2.6')], level: 'MAY', note: PEER_NOTE }),
    'v0.3': gen({ sentences: [cardAvailable('a2a-v0.3.0', '§5.1 Purpose'), wellKnownRecommended('a2a-v0.3.0')], level: 'MAY', note: PEER_NOTE }),
    'v1.0': gen({
      sentences: [
        cardAvailable('a2a-v1.0.1', '§8.1 Purpose'),
        { doc: 'a2a-v1.0.1', section: '§8.2 Discovery Mechanisms', quote: 'Direct Configuration: Pre-configured Agent Card URLs or content', keyword: 'none' },
      ],
      level: 'MAY',
      note: PEER_NOTE,
    }),
  },

  'interop.peer.common': {
    legacy: gen({
      sentences: [jsonRpcOnly('a2a-v0.1.0')],
      note: 'Every legacy agent speaks JSON-RPC; nothing requires two agents of different generations to share a protocol version. Seed procedure 5.5, not the spec. Advisory.',
    }),
    'v0.2': gen({
      sentences: [
        jsonRpcOnly('a2a-v0.2.6'),
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.additionalInterfaces',
          quote: '"description": "Announcement of additional supported transports. Client can use any of\\nthe supported transports."',
          keyword: 'none',
        },
      ],
      note: 'Nothing requires two agents to share a binding or version. Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2 Supported Transport Protocols',
          quote: 'All three protocols are considered equal in status, and agents may choose to implement any combination of them based on their requirements.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§3.4.2 Transport Selection and Negotiation',
          quote: 'Client Choice: Clients MAY choose any transport declared by the agent.',
          keyword: 'MAY',
        },
      ],
      note: 'Two conforming agents may implement disjoint transports (one JSON-RPC only, one HTTP+JSON only). Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§5.2 Protocol Selection and Negotiation',
          quote: 'Client Choice: Clients MAY choose any protocol declared by the agent',
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.6.2 Server Responsibilities',
          quote: 'Agents CAN expose multiple interfaces for the same transport with different versions under the same or different URLs.',
          keyword: 'none',
        },
      ],
      note: 'Offering a 0.3 interface next to 1.0 is allowed, not required; nothing requires two agents to share a binding. Advisory.',
    }),
  },

  'interop.peer.concurrent': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§6.1 Task Object (id)',
          quote: 'when initiating the task and MUST be used by the server to refer to this task.',
          keyword: 'MUST',
        },
      ],
      note: 'Backed: each task keeps the (distinct) id the client chose. Not backed: that four tasks settle within our budget (a timeout is a tool limit). Half of the tasks run on the peer, which is not the agent under test.',
    }),
    'v0.2': gen({
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'Task.id',
          quote: '"id": { "description": "Unique identifier for the task", "type": "string" }',
          keyword: 'none',
        },
      ],
      note: 'The schema requires a Task to have an id (its presence is lifecycle.shape\'s MUST) and describes it as "Unique", without a requirement word: two tasks sharing an id is an advisory. That concurrent tasks settle within our budget is not a requirement either.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'Task.id',
          quote: '"id": { "description": "A unique identifier for the task, generated by the server for a new task.", "type": "string" }',
          keyword: 'none',
        },
      ],
      note: 'As v0.2.6: the id is required (lifecycle.shape), its uniqueness only described ("A unique identifier"): a shared id is an advisory; settling within our budget is not a requirement.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.4.2 Task Identifier Semantics',
          quote: 'Agents MUST generate a unique taskId for each new task they create',
          keyword: 'MUST',
        },
      ],
      note: 'Backed: distinct task ids. Not backed: that the tasks settle within our budget.',
    }),
  },

  'interop.peer.relay': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure (defaultInputModes)',
          quote: 'Default accepted input MIME types. Defaults to ["text/plain"] if omitted.',
          keyword: 'none',
        },
      ],
      note: "Nothing requires an agent to accept another agent's output. Seed procedure 5.5. Advisory.",
    }),
    'v0.2': gen({
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.defaultInputModes',
          quote:
            '"description": "The set of interaction modes that the agent supports across all skills. This can be overridden per-skill.\\nSupported media types for input."',
          keyword: 'none',
        },
      ],
      note: 'Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.defaultInputModes',
          quote: '"description": "Default set of supported input MIME types for all skills, which can be\\noverridden on a per-skill basis."',
          keyword: 'none',
        },
      ],
      note: 'Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.7 Messages and Artifacts',
          quote: 'The core interaction model defined by A2A is for clients to send messages to initiate a task that produces one or more artifacts.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.1 Send Message (Errors)',
          quote: "ContentTypeNotSupportedError: A Media Type provided in the request's message parts is not supported by the agent.",
          keyword: 'none',
        },
      ],
      note: "An agent may refuse input it does not support; nothing requires accepting another agent's output. Advisory.",
    }),
  },

  'interop.extensions': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§4.6.3 Extension Versioning and Compatibility',
          quote:
            'If a client requests a versions of an extension that the agent does not support, the agent SHOULD ignore the extension for that interaction and proceed without it, unless the extension is marked as required in the AgentCard, in which case the agent MUST return an error indicating unsupported extension.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§4.6.1 Extension Declaration',
          quote:
            'Clients indicate their desire to opt into the use of specific extensions through binding-specific mechanisms such as HTTP headers, gRPC metadata, or JSON-RPC request parameters that identify the extension identifiers they wish to utilize during the interaction.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.2.6 Service Parameters',
          quote: 'Comma-separated list of extension URIs that the client wants to use for the request',
          keyword: 'none',
        },
      ],
      note: 'An extension the agent does not know, named beside the ones it requires, is ignored (SHOULD). A refusal of a message that activates only extensions the card declares is advice (no sentence requires serving it). Whether the answer lists the activated extensions in A2A-Extensions is reported, not judged: the specification text does not require it.',
    },
  },
};
