import type { CheckSpec } from '../types';

/**
 * What each card check enforces, per generation, quoted from the specification (see ../types.ts).
 * This file is a list of independent entries, one per check id (long by nature: each entry quotes its sentences
 * per generation); it holds no judging logic. Entries are looked up by id (the run order is src/engine/checks/index.ts).
 */
export const SPEC: Record<string, CheckSpec> = {
  'card.discovery': {
    legacy: {
      sentences: [
        { doc: 'a2a-v0.1.0', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.3 Recommended Location',
          quote: "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent.json",
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.2 Discovery Mechanisms',
          quote: 'Clients may be pre-configured with the Agent Card URL or the card content itself.',
          keyword: 'none',
        },
      ],
      note: 'The MUST is that a card exists; the well-known URI is only the recommended place. A card not found at the well-known paths of a base URL is not proof of absence (it may be configured directly); a card refused with 401/403 is permitted (§5.4) and is not a discovery failure.',
    },
    'v0.2': {
      sentences: [
        { doc: 'a2a-v0.2.6', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.2.6',
          section: '§5.3 Recommended Location',
          quote: "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent.json",
          keyword: 'none',
        },
      ],
      note: 'The MUST is that a card exists; the well-known URI is only the recommended place, and a card protected by authentication is permitted (§5.4).',
    },
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.3 Recommended Location',
          quote:
            "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent-card.json",
          keyword: 'none',
        },
      ],
      note: 'The MUST is that a card exists; the well-known URI is only the recommended place, and a card protected by authentication is permitted (§5.4).',
    },
    'v1.0': {
      sentences: [
        { doc: 'a2a-v1.0.1', section: '§8.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.2 Discovery Mechanisms',
          quote: 'Well-Known URI: Accessing https://{server_domain}/.well-known/agent-card.json',
          keyword: 'none',
        },
        { doc: 'a2a-v1.0.1', section: '§8.2 Discovery Mechanisms', quote: 'Direct Configuration: Pre-configured Agent Card URLs or content', keyword: 'none' },
        {
          doc: 'a2a-v1.0.1',
          section: '§14.3 Well-Known URI Registration',
          quote: 'The resource at this URI MUST return an AgentCard object as defined in Section 4.4.1 of the A2A specification.',
          keyword: 'MUST',
        },
      ],
    },
  },

  'card.json': {
    legacy: {
      sentences: [
        { doc: 'a2a-v0.1.0', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
          keyword: 'MUST',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
          keyword: 'MUST NOT',
        },
      ],
    },
    'v0.2': {
      sentences: [
        { doc: 'a2a-v0.2.6', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.2.6',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
          keyword: 'MUST',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
          keyword: 'MUST NOT',
        },
      ],
    },
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§5.1 Purpose', quote: 'A2A Servers MUST make an Agent Card available.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
          keyword: 'MUST',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
          keyword: 'MUST NOT',
        },
      ],
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§14.3 Well-Known URI Registration',
          quote: 'The resource at this URI MUST return an AgentCard object as defined in Section 4.4.1 of the A2A specification.',
          keyword: 'MUST',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
          keyword: 'MUST',
        },
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
          keyword: 'MUST NOT',
        },
      ],
      note: "v1.0 cards are ProtoJSON (§5.5); RFC 8259 applies as the JSON it builds on. A body larger than the tool's read limit is a tool limit, not a JSON defect.",
    },
  },

  'card.content-type': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        { doc: 'a2a-v0.1.0', section: '§5.3 Recommended Location', quote: 'This follows the principles of RFC 8615 for well-known URIs.', keyword: 'none' },
        { doc: 'rfc8259', section: '§11 IANA Considerations', quote: 'The media type for JSON text is application/json.', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§8.3 Content-Type',
          quote:
            'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
          keyword: 'SHOULD',
        },
      ],
      note: 'No A2A sentence names the card\'s media type (the "MUST be application/json" of §3.2 covers JSON-RPC payloads only). The SHOULD is HTTP\'s for sending a Content-Type; application/json is the registered type of JSON text. A missing Content-Type fails that SHOULD; a media type other than JSON is an advisory.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        { doc: 'a2a-v0.2.6', section: '§5.3 Recommended Location', quote: 'This follows the principles of RFC 8615 for well-known URIs.', keyword: 'none' },
        { doc: 'rfc8259', section: '§11 IANA Considerations', quote: 'The media type for JSON text is application/json.', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§8.3 Content-Type',
          quote:
            'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
          keyword: 'SHOULD',
        },
      ],
      note: "No A2A sentence names the card's media type (§3.2 covers JSON-RPC payloads only). A missing Content-Type fails that SHOULD; a media type other than JSON is an advisory.",
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§5.1 Purpose',
          quote:
            "The Agent Card is a JSON document that describes the server's identity, capabilities, skills, service endpoint URL, and how clients should authenticate and interact with it.",
          keyword: 'none',
        },
        { doc: 'a2a-v0.3.0', section: '§5.3 Recommended Location', quote: 'This follows the principles of RFC 8615 for well-known URIs.', keyword: 'none' },
        { doc: 'rfc8259', section: '§11 IANA Considerations', quote: 'The media type for JSON text is application/json.', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§8.3 Content-Type',
          quote:
            'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
          keyword: 'SHOULD',
        },
      ],
      note: "No A2A sentence names the card's media type (§3.2.1 and §3.2.3 cover JSON-RPC and REST payloads, not the card). A missing Content-Type fails that SHOULD; a media type other than JSON is an advisory.",
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.2 Discovery Mechanisms',
          quote: 'Well-Known URI: Accessing https://{server_domain}/.well-known/agent-card.json',
          keyword: 'none',
        },
        { doc: 'rfc8259', section: '§11 IANA Considerations', quote: 'The media type for JSON text is application/json.', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§8.3 Content-Type',
          quote:
            'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
          keyword: 'SHOULD',
        },
      ],
      note: 'v1.0 names no media type for the card; application/json and application/a2a+json (§14.1) both describe it. A missing Content-Type fails that SHOULD; a media type other than JSON is an advisory.',
    },
  },

  'card.well-known-path': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.3 Recommended Location',
          quote: "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent.json",
          keyword: 'none',
        },
        { doc: 'a2a-v0.1.0', section: '§5.3 Recommended Location', quote: 'This follows the principles of RFC 8615 for well-known URIs.', keyword: 'none' },
      ],
      note: '"recommended" is lower-case prose, not a requirement keyword: the location is advice.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§5.3 Recommended Location',
          quote: "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent.json",
          keyword: 'none',
        },
      ],
      note: '"recommended" is lower-case prose, not a requirement keyword: the location is advice.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§5.3 Recommended Location',
          quote:
            "If using the well-known URI strategy, the recommended location for an agent's Agent Card is: https://{server_domain}/.well-known/agent-card.json",
          keyword: 'none',
        },
      ],
      note: '"recommended" is lower-case prose, not a requirement keyword: the location is advice.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.2 Discovery Mechanisms',
          quote: 'Well-Known URI: Accessing https://{server_domain}/.well-known/agent-card.json',
          keyword: 'none',
        },
        { doc: 'a2a-v1.0.1', section: '§14.3 Well-Known URI Registration', quote: 'URI suffix: agent-card.json', keyword: 'none' },
      ],
      note: 'v1.0 registers the suffix but never requires an agent to serve its card there (direct configuration and registries are equal mechanisms, §8.2).',
    },
  },

  'card.required-fields': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote: '"required": [ "name", "url", "version", "capabilities", "skills" ], "title": "AgentCard"',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentProvider (required)',
          quote: '"required": [ "organization" ], "title": "AgentProvider"',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote: '// Information about the organization or entity providing the agent. provider?: AgentProvider | null;',
          keyword: 'none',
        },
      ],
      note: 'The v0.1.0 document types the optional fields as "| null" (provider, description, documentationUrl, authentication); its schema does not allow null. Null optional fields are a contradiction inside the release: at most an advisory.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'AgentProvider (required)', quote: '"required": [ "organization", "url" ]', keyword: 'required-field' },
      ],
      note: 'The schema requires presence and type only: an empty string is schema-valid. protocolVersion is required from v0.2.5 (cards of v0.2.0-0.2.4 lack it).',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'AgentProvider (required)', quote: '"required": [ "organization", "url" ]', keyword: 'required-field' },
      ],
      note: 'The schema requires presence and type only: an empty string is schema-valid.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'string name = 1 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'string description = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'repeated AgentInterface supported_interfaces = 3 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'string version = 5 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'AgentCapabilities capabilities = 7 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'repeated string default_input_modes = 10 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'repeated AgentSkill skills = 12 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentProvider',
          quote:
            'string url = 1 [(google.api.field_behavior) = REQUIRED]; // The name of the agent provider\'s organization. // Example: "Google" string organization = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages.',
          keyword: 'MUST',
        },
        { doc: 'a2a-v1.0.1', section: '§8.4.1 Canonicalization Requirements', quote: 'description: "" - REQUIRED field → include', keyword: 'none' },
      ],
      note: 'Presence is a MUST (§5.7, §8.4.1). Whether an empty string counts as "set" is contradicted by the §8.4.1 example, which keeps description "" as a valid REQUIRED value: an empty required string is at most an advisory.',
    },
  },

  'card.capabilities.shape': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote: '| capabilities | AgentCapabilities | Yes | Specifies optional A2A protocol features supported (e.g., streaming, push notifications). |',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5.2 AgentCapabilities Object',
          quote: '| streaming | boolean | No | false | Indicates support for SSE streaming methods (tasks/sendSubscribe, tasks/resubscribe). |',
          keyword: 'none',
        },
      ],
      note: 'capabilities is a required object whose known members are booleans. Members the schema does not name are not forbidden (no additionalProperties: false).',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCapabilities.streaming',
          quote: '"streaming": { "description": "true if the agent supports SSE.", "type": "boolean" }',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentExtension (required)',
          quote: '"uri": { "description": "The URI of the extension.", "type": "string" } }, "required": [ "uri" ]',
          keyword: 'required-field',
        },
      ],
      note: 'Members the schema does not name are not forbidden (no additionalProperties: false).',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCapabilities.streaming',
          quote: '"streaming": { "description": "Indicates if the agent supports Server-Sent Events (SSE) for streaming responses.", "type": "boolean" }',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentExtension (required)',
          quote: '"uri": { "description": "The unique URI identifying the extension.", "type": "string" } }, "required": [ "uri" ]',
          keyword: 'required-field',
        },
      ],
      note: 'Members the schema does not name are not forbidden (no additionalProperties: false).',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'AgentCapabilities capabilities = 7 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        { doc: 'a2a-v1.0.1', file: 'a2a.proto', section: 'message AgentCapabilities', quote: 'optional bool streaming = 1;', keyword: 'none' },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentExtension',
          quote: '// The unique URI identifying the extension. string uri = 1;',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves.',
          keyword: 'SHOULD',
        },
      ],
      note: "AgentExtension.uri is not REQUIRED in the v1.0 proto. Unrecognized capability members are to be ignored (§5.7), so only the known members' types can fail.",
    },
  },

  'card.skills': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentSkill (required)',
          quote: '"required": [ "id", "name" ], "title": "AgentSkill"',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5.4 AgentSkill Object',
          quote: '| id | string | Yes | Unique skill identifier within this agent. |',
          keyword: 'required-field',
        },
      ],
      note: 'Presence and type of id and name are required; uniqueness of ids is descriptive (no keyword): a duplicate id is an advisory. The document allows null for the optional skill fields.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentSkill (required)',
          quote: '"required": [ "description", "id", "name", "tags" ]',
          keyword: 'required-field',
        },
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'AgentSkill.id', quote: '"description": "Unique identifier for the agent\'s skill."', keyword: 'none' },
      ],
      note: 'Presence and type are required (an empty string is schema-valid); uniqueness of ids is descriptive: a duplicate id is an advisory.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentSkill (required)',
          quote: '"required": [ "description", "id", "name", "tags" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentSkill.id',
          quote: '"description": "A unique identifier for the agent\'s skill."',
          keyword: 'none',
        },
      ],
      note: 'Presence and type are required (an empty string is schema-valid); uniqueness of ids is descriptive: a duplicate id is an advisory.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentSkill',
          quote: "// A unique identifier for the agent's skill. string id = 1 [(google.api.field_behavior) = REQUIRED];",
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentSkill',
          quote: '// A detailed description of the skill. string description = 3 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentSkill',
          quote: 'repeated string tags = 4 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages.',
          keyword: 'MUST',
        },
      ],
      note: 'Uniqueness of ids is descriptive (advisory). An empty required string is contradicted by the §8.4.1 example (description ""), so "empty" is an advisory; a missing field is a MUST failure.',
    },
  },

  'card.modes': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote: '// Default if omitted: ["text/plain"]. Example: ["text/plain", "image/png"].',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentCard.defaultInputModes',
          quote: '"defaultInputModes": { "default": [ "text" ], "items": { "type": "string" }, "title": "DefaultInputModes", "type": "array" }',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5.4 AgentSkill Object',
          quote: "// If null or omitted, the agent's defaultInputModes apply. inputModes?: string[] | null; // Array of MIME types",
          keyword: 'none',
        },
      ],
      level: 'MUST',
      note: 'The modes are optional in v0.1.0, but the normative schema types them as arrays of strings: a value of another type is invalid. Absent, empty or (per the document) null lists are permitted.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.defaultOutputModes',
          quote: '"defaultOutputModes": { "description": "Supported media types for output.", "items": { "type": "string" }, "type": "array" }',
          keyword: 'none',
        },
      ],
      note: 'The default modes must be present lists of strings; the schema sets no minimum length, so an empty list is schema-valid (advisory). Skill modes are optional.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentSkill.inputModes',
          quote:
            '"description": "The set of supported input MIME types for this skill, overriding the agent\'s defaults.", "items": { "type": "string" }, "type": "array"',
          keyword: 'none',
        },
      ],
      note: 'The default modes must be present lists of strings; the schema sets no minimum length, so an empty list is schema-valid (advisory). Skill modes are optional.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'repeated string default_input_modes = 10 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: 'repeated string default_output_modes = 11 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Arrays marked as required MUST contain at least one element.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentSkill',
          quote: "// The set of supported input media types for this skill, overriding the agent's defaults. repeated string input_modes = 6;",
          keyword: 'none',
        },
      ],
      note: 'The default modes are REQUIRED and non-empty. Skill modes are plain repeated fields: in ProtoJSON an empty list is the same as an absent one (the defaults apply), so it cannot fail.',
    },
  },

  'card.modes.media-types': {
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.defaultOutputModes',
          quote: '"description": "Supported media types for output."',
          keyword: 'none',
        },
      ],
      note: 'The schema describes the modes as media types but states no requirement.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.defaultInputModes',
          quote: 'Default set of supported input MIME types for all skills, which can be',
          keyword: 'none',
        },
      ],
      note: 'The schema describes the modes as MIME types but states no requirement.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: '// This can be overridden per skill. Defined as media types.',
          keyword: 'none',
        },
      ],
      note: 'The proto describes the modes as media types but states no requirement.',
    },
  },

  'card.urls.endpoint': {
    legacy: {
      sentences: [
        { doc: 'a2a-v0.1.0', section: '§3.1 Transport Protocol', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'a2a-v0.1.0',
          section: '§3.1 Transport Protocol',
          quote: 'The A2A Server exposes its service at a URL defined in its AgentCard.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote: "| url | string | Yes | Base URL for the agent's A2A service. Must be absolute. HTTPS for production. |",
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote:
            '// Must be an absolute HTTPS URL for production (e.g., https://agent.example.com/a2a/api). // HTTP MAY be used for local development/testing only.',
          keyword: 'MAY',
        },
      ],
      note: 'An http(s) URL follows from §3.1 (MUST). "Must be absolute" is lower-case prose; "HTTPS for production" is deployment advice, and plain HTTP is allowed for development.',
    },
    'v0.2': {
      sentences: [
        { doc: 'a2a-v0.2.6', section: '§3.1 Transport Protocol', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'a2a-v0.2.6',
          section: '§3.1 Transport Protocol',
          quote: 'The A2A Server exposes its service at a URL defined in its AgentCard.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.url',
          quote: '"description": "A URL to the address the agent is hosted at.',
          keyword: 'none',
        },
      ],
      note: 'v0.2.4+ cards may also declare additionalInterfaces with other transports; judge each by its transport (a gRPC target is host:port).',
    },
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§3.1 Transport Layer Requirements', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.1 Main URL and Preferred Transport',
          quote: 'Main URL requirement: The url field MUST specify the primary endpoint for the agent.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.2 Additional Interfaces',
          quote: 'Transport declaration: Each AgentInterface MUST accurately declare the transport protocol available at its specified URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentInterface.url',
          quote: '"description": "The URL where this interface is available. Must be a valid absolute HTTPS URL in production."',
          keyword: 'none',
        },
      ],
      note: 'Each URL must be usable for its declared transport. For gRPC the target is host:port (A2A PR #1997 corrected the "https://grpc.example.com/a2a" example); "HTTPS in production" is lower-case deployment advice.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.3.1 Supported Interfaces Declaration',
          quote: 'Each interface MUST accurately declare its transport protocol and URL',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentInterface',
          quote:
            '// The URL where this interface is available. Must be a valid absolute HTTPS URL in production. // Example: "https://api.example.com/a2a/v1", "https://grpc.example.com/a2a"',
          keyword: 'none',
        },
        { doc: 'a2a-v1.0.1', section: '§5.8 Custom Binding Identification', quote: '"url": "wss://agent.example.com/a2a/websocket",', keyword: 'none' },
      ],
      note: 'Judge each interface by its binding: JSONRPC and HTTP+JSON need an absolute http(s) URL; GRPC takes host:port (the proto example was corrected by A2A PR #1997, issue #1388); a custom binding may use its own scheme (§5.8 shows wss://). "HTTPS in production" (§7.1) is deployment advice, not a card-shape rule.',
    },
  },

  'card.urls.other': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5 AgentCard Object Structure',
          quote: '// URL pointing to human-readable documentation for the agent (e.g., API usage, detailed skill descriptions).',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§5.5.1 AgentProvider Object',
          quote: "// URL for the provider's organization website or relevant contact page.",
          keyword: 'none',
        },
      ],
      note: 'The provider and documentation URLs are described without a requirement word: findings are advice.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.documentationUrl',
          quote: '"description": "A URL to documentation for the agent."',
          keyword: 'none',
        },
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'AgentCard.iconUrl', quote: '"description": "A URL to an icon for the agent."', keyword: 'none' },
      ],
      note: 'Provider, documentation and icon URLs are descriptive; the OAuth flow URLs, which carry a MUST, are judged by card.urls.oauth.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.documentationUrl',
          quote: '"description": "An optional URL to the agent\'s documentation."',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentProvider.url',
          quote: '"description": "A URL for the agent provider\'s website or relevant documentation."',
          keyword: 'none',
        },
      ],
      note: 'Provider, documentation and icon URLs are descriptive; the OAuth flow URLs, which carry a MUST, are judged by card.urls.oauth.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentCard',
          quote: '// A URL providing additional documentation about the agent.',
          keyword: 'none',
        },
        { doc: 'a2a-v1.0.1', file: 'a2a.proto', section: 'message AgentCard', quote: '// Optional. A URL to an icon for the agent.', keyword: 'none' },
      ],
      note: 'Provider, documentation and icon URLs are descriptive; the OAuth flow URLs are judged by card.urls.oauth.',
    },
  },

  'card.urls.oauth': {
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AuthorizationCodeOAuthFlow.tokenUrl (and the other flow URLs)',
          quote: 'This MUST be in the form of a URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'OpenIdConnectSecurityScheme.openIdConnectUrl',
          quote: '"description": "Well-known URL to discover the [[OpenID-Connect-Discovery]] provider metadata."',
          keyword: 'none',
        },
      ],
      note: 'Every OAuth flow URL (authorizationUrl, tokenUrl, refreshUrl) MUST be a URL: an absolute URL, whatever its scheme. The "OAuth2 standard requires the use of TLS" is descriptive here, and the OpenID Connect URL is described without a requirement word: advice.',
    },
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'AuthorizationCodeOAuthFlow.tokenUrl', quote: 'This MUST be a URL and use TLS.', keyword: 'MUST' },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'ClientCredentialsOAuthFlow.tokenUrl (and the other flow URLs)',
          quote: 'The token URL to be used for this flow. This MUST be a URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'OpenIdConnectSecurityScheme.openIdConnectUrl',
          quote: '"description": "The OpenID Connect Discovery URL for the OIDC provider\'s metadata."',
          keyword: 'none',
        },
      ],
      note: 'Every OAuth flow URL MUST be a URL (absolute). The authorization-code URLs MUST also use TLS; plain http is reported as advice only, as the tool does for endpoint URLs (local development).',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message ImplicitOAuthFlow (deprecated)',
          quote: '// The authorization URL to be used for this flow. This MUST be in the // form of a URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message PasswordOAuthFlow (deprecated)',
          quote: '// The token URL to be used for this flow. This MUST be in the form of a URL.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message ClientCredentialsOAuthFlow',
          quote: '// The token URL to be used for this flow. string token_url = 1 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
      ],
      note: 'In v1.0 the "MUST be in the form of a URL" survives only on the deprecated implicit and password flows; the URLs of the other flows and the OpenID Connect URL are described without it, so findings there are advice.',
    },
  },

  'card.security.schemes': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentAuthentication (required)',
          quote: '"required": [ "schemes" ], "title": "AgentAuthentication"',
          keyword: 'required-field',
        },
        { doc: 'a2a-v0.1.0', section: '§5.5 AgentCard Object Structure', quote: 'authentication?: AgentAuthentication | null;', keyword: 'none' },
      ],
      note: 'authentication.schemes is required when authentication is present. The document allows authentication: null; the schema does not (contradiction: null is at most an advisory).',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'APIKeySecurityScheme (required)',
          quote: '"required": [ "in", "name", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'HTTPAuthSecurityScheme (required)',
          quote: '"required": [ "scheme", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'OAuth2SecurityScheme (required)',
          quote: '"required": [ "flows", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'OpenIdConnectSecurityScheme (required)',
          quote: '"required": [ "openIdConnectUrl", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AuthorizationCodeOAuthFlow (required)',
          quote: '"required": [ "authorizationUrl", "scopes", "tokenUrl" ]',
          keyword: 'required-field',
        },
      ],
      note: 'OAuthFlows names four flows but does not forbid others (no additionalProperties: false): an unknown flow name is an advisory.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'APIKeySecurityScheme (required)',
          quote: '"required": [ "in", "name", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'HTTPAuthSecurityScheme (required)',
          quote: '"required": [ "scheme", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'OAuth2SecurityScheme (required)',
          quote: '"required": [ "flows", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'OpenIdConnectSecurityScheme (required)',
          quote: '"required": [ "openIdConnectUrl", "type" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AuthorizationCodeOAuthFlow (required)',
          quote: '"required": [ "authorizationUrl", "scopes", "tokenUrl" ]',
          keyword: 'required-field',
        },
      ],
      note: 'OAuthFlows names four flows but does not forbid others: an unknown flow name is an advisory.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message APIKeySecurityScheme',
          quote: 'string location = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message APIKeySecurityScheme',
          quote: 'string name = 3 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message OAuth2SecurityScheme',
          quote: 'OAuthFlows flows = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message OpenIdConnectSecurityScheme',
          quote: 'string open_id_connect_url = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message OAuthFlows',
          quote: '// Defines the configuration for the supported OAuth 2.0 flows. message OAuthFlows { oneof flow {',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message ImplicitOAuthFlow',
          quote: '// Deprecated: Use Authorization Code + PKCE instead. message ImplicitOAuthFlow {',
          keyword: 'none',
        },
      ],
      note: 'REQUIRED fields per proto; flows is a oneof (one flow). The deprecated implicit and password flows mark no field REQUIRED, so their URLs and scopes cannot fail.',
    },
  },

  'card.security.references': {
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7.10 agent/authenticatedExtendedCard',
          quote:
            'Authentication: The client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.security',
          quote: '"description": "Security requirements for contacting the agent."',
          keyword: 'none',
        },
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'SecurityScheme', quote: 'Mirrors the OpenAPI Security Scheme Object', keyword: 'none' },
      ],
      note: 'The rule that every name in a requirement is a declared scheme is OpenAPI 3.0\'s ("Each name MUST correspond to a security scheme which is declared in the Security Schemes under the Components Object"), which the card\'s security model mirrors; A2A itself only presupposes it.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7.10 agent/getAuthenticatedExtendedCard',
          quote:
            'Authentication: The client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields.',
          keyword: 'MUST',
        },
        { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'AgentCard.security', quote: 'Follows the OpenAPI 3.0 Security Requirement Object.', keyword: 'none' },
      ],
      note: 'The rule itself is OpenAPI 3.0\'s Security Requirement Object ("Each name MUST correspond to a security scheme which is declared in the Security Schemes under the Components Object"), which the v0.3 schema says it follows.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§13.3 Extended Agent Card Access Control',
          quote: 'Agents MUST authenticate requests using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message SecurityRequirement',
          quote: '// A map of security schemes to the required scopes. map<string, StringList> schemes = 1;',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message SecurityScheme',
          quote: '// This is a discriminated union type based on the OpenAPI 3.2 Security Scheme Object.',
          keyword: 'none',
        },
      ],
      note: 'A requirement keyed by an undeclared scheme name cannot be met with "one of the schemes declared"; the explicit rule is OpenAPI\'s, on which the security model is based.',
    },
  },

  'card.protocol.coherence': {
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard (required)',
          quote:
            '"required": [ "capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "protocolVersion", "skills", "url", "version" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.preferredTransport',
          quote: '"description": "The transport of the preferred endpoint. If empty, defaults to JSONRPC."',
          keyword: 'none',
        },
      ],
      note: 'Only protocolVersion\'s presence is required (from v0.2.5). v0.2.6 sets no rule on preferredTransport values (AgentInterface.transport is "an open form string") nor on URLs shared by transports: those findings are advisories.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.4 Validation Requirements',
          quote: 'No conflicts: The same URL MUST NOT declare conflicting transport protocols across different interface declarations.',
          keyword: 'MUST NOT',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.2 Additional Interfaces',
          quote:
            'URL uniqueness: Each AgentInterface in additionalInterfaces SHOULD specify a distinct URL for clarity, but MAY reuse URLs if multiple transport protocols are available at the same endpoint.',
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.5.5 AgentInterface Object',
          quote: 'The transport field SHOULD use one of the core A2A transport protocol values:',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.5.5 AgentInterface Object',
          quote: 'Additional transport values MAY be used for future extensions, but such extensions MUST not conflict with core A2A protocol functionality.',
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§5.6.1 Main URL and Preferred Transport',
          quote: 'Required declaration: The preferredTransport field is REQUIRED and MUST be present in every AgentCard.',
          keyword: 'REQUIRED',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.preferredTransport',
          quote: '"preferredTransport": { "default": "JSONRPC",',
          keyword: 'none',
        },
      ],
      note: 'Contradiction: §5.6.1 makes preferredTransport REQUIRED, the schema makes it optional with default "JSONRPC"; a missing preferredTransport is at most an advisory. Different transports on one URL are permitted (§5.6.2 MAY): from the card alone a conflict (§5.6.4) cannot be told from reuse, so it is advice (calling each interface is what can prove a mismatch). A non-core transport value is permitted for extensions (§5.5.5 MAY): advice that clients may not support it.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentInterface',
          quote: 'string protocol_binding = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentInterface',
          quote: 'string protocol_version = 4 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.3.1 Supported Interfaces Declaration',
          quote: 'Each interface MUST accurately declare its transport protocol and URL',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves.',
          keyword: 'SHOULD',
        },
      ],
      note: 'Missing protocolBinding/protocolVersion is a MUST failure. v0.3 top-level fields beside supportedInterfaces are unrecognized fields receivers ignore (advisory; a2a-js emits such dual cards). The SHOULD-level spelling of bindings and versions is judged by card.protocol.conventions.',
    },
  },

  'card.protocol.conventions': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.6 Versioning',
          quote:
            'Patch version numbers SHOULD NOT be used in requests, responses and Agent Cards, and MUST not be considered when clients and servers negotiate protocol versions.',
          keyword: 'SHOULD NOT',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.8 Custom Binding Identification',
          quote: "The protocolBinding field in the Agent Card's supportedInterfaces entry SHOULD be a URI:",
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'message AgentInterface',
          quote: 'The core ones officially // supported are JSONRPC, GRPC and HTTP+JSON.',
          keyword: 'none',
        },
      ],
      note: 'A patch number in protocolVersion is a SHOULD NOT; a binding that is neither a core name (spelled exactly) nor a URI breaks the §5.8 SHOULD. Other version formats are shown only by examples: advice.',
    },
  },

  'card.public': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§5.4 Security of Agent Cards',
          quote:
            'If an Agent Card contains sensitive information, the endpoint serving the card MUST be protected by appropriate access controls (e.g., mTLS, network restrictions, authentication required to fetch the card).',
          keyword: 'MUST',
        },
      ],
      level: 'MAY',
      note: 'The only requirement points the other way: a card may, and with sensitive content must, be served only with credentials. No sentence requires the card to be public, so a card served only with credentials is an advisory.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§5.4 Security of Agent Cards',
          quote:
            'If an Agent Card contains sensitive information, the endpoint serving the card MUST be protected by appropriate access controls (e.g., mTLS, network restrictions, authentication required to fetch the card).',
          keyword: 'MUST',
        },
        { doc: 'a2a-v0.2.6', section: '§9.1 Fetching Authenticated Extended Agent Card', quote: 'Client fetches the public Agent Card:', keyword: 'none' },
      ],
      level: 'MAY',
      note: 'Protecting the card is permitted (and required when it holds sensitive information); "public Agent Card" is descriptive. A card served only with credentials is an advisory.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§5.4 Security of Agent Cards',
          quote:
            'If an Agent Card contains sensitive information, the endpoint serving the card MUST be protected by appropriate access controls (e.g., mTLS, network restrictions, authentication required to fetch the card).',
          keyword: 'MUST',
        },
        { doc: 'a2a-v0.3.0', section: '§9.1 Fetching Authenticated Extended Agent Card', quote: 'Client fetches the public Agent Card:', keyword: 'none' },
      ],
      level: 'MAY',
      note: 'Protecting the card is permitted (and required when it holds sensitive information); "public Agent Card" is descriptive. A card served only with credentials is an advisory.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§14.3 Well-Known URI Registration',
          quote:
            "The Agent Card MAY contain public information about an agent's capabilities and SHOULD NOT include sensitive credentials or internal implementation details",
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§13.3 Extended Agent Card Access Control',
          quote:
            'The extended Agent Card feature allows agents to provide additional capabilities or information to authenticated clients beyond what is available in the public Agent Card.',
          keyword: 'none',
        },
      ],
      level: 'MAY',
      note: 'v1.0 calls the well-known card "public" but nowhere requires it to be readable without credentials; the SHOULD NOT is about content, not access.',
    },
  },

  'card.caching': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.6 Caching',
          quote: 'Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.6.1 Server Requirements',
          quote:
            "Agent Card HTTP endpoints SHOULD include a Cache-Control response header with a max-age directive appropriate for the agent's expected update frequency",
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.6.1 Server Requirements',
          quote: "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content",
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.6.1 Server Requirements',
          quote: 'Agent Card HTTP endpoints MAY include a Last-Modified response header',
          keyword: 'MAY',
        },
      ],
    },
  },

  'card.vary': {
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§5.3 Recommended Location', quote: 'This follows the principles of RFC 8615 for well-known URIs.', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§12.5.5 Vary',
          quote:
            'An origin server SHOULD generate a Vary header field on a cacheable response when it wishes that response to be selectively reused for subsequent requests.',
          keyword: 'SHOULD',
        },
      ],
      note: "v0.3 defines no A2A-Version header; this applies when a server (typically a v1.0 server with v0.3 compatibility) varies the card on it. The SHOULD is HTTP's and holds only for cacheable responses.",
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.6 Caching',
          quote: 'Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead.',
          keyword: 'SHOULD',
        },
        {
          doc: 'rfc9110',
          section: '§12.5.5 Vary',
          quote:
            'An origin server SHOULD generate a Vary header field on a cacheable response when it wishes that response to be selectively reused for subsequent requests.',
          keyword: 'SHOULD',
        },
      ],
      note: 'The SHOULD holds for cacheable responses; a card sent with Cache-Control: no-store needs no Vary.',
    },
  },

  'card.signatures': {
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCardSignature (required)',
          quote: '"required": [ "protected", "signature" ], "type": "object"',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCardSignature',
          quote: 'This follows the JSON format of an RFC 7515 JSON Web Signature (JWS).',
          keyword: 'none',
        },
        {
          doc: 'rfc7515',
          section: '§4.1.1 "alg" (Algorithm) Header Parameter',
          quote: 'This Header Parameter MUST be present and MUST be understood and processed by implementations.',
          keyword: 'MUST',
        },
      ],
      note: 'RFC 7515 requires "alg" in the JOSE Header, which is the union of the protected and the unprotected ("header") members: in v0.3 "alg" may sit in either. v0.3 requires no "kid".',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4 Agent Card Signing',
          quote: 'Agent Cards MAY be digitally signed using JSON Web Signature (JWS) as defined in RFC 7515 to ensure authenticity and integrity.',
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.2 Signature Format',
          quote: 'protected (required, string): Base64url-encoded JSON object containing the JWS Protected Header',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.2 Signature Format',
          quote: 'signature (required, string): Base64url-encoded signature value',
          keyword: 'required-field',
        },
        { doc: 'a2a-v1.0.1', section: '§8.4.2 Signature Format', quote: 'The protected header MUST include:', keyword: 'MUST' },
        { doc: 'a2a-v1.0.1', section: '§8.4.2 Signature Format', quote: 'kid: Key ID for identifying the signing key', keyword: 'none' },
      ],
      note: 'Signing is optional; a signature that is present must have protected and signature, and its protected header must carry alg and kid (typ is a SHOULD).',
    },
  },

  'card.signatures.verified': {
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCardSignature',
          quote: 'AgentCardSignature represents a JWS signature of an AgentCard.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.signatures',
          quote: 'JSON Web Signatures computed for this AgentCard.',
          keyword: 'none',
        },
      ],
      note: 'v0.3 does not say which bytes are signed (no canonicalization rule): the signature is verified as v1.0 defines it (RFC 8785 over the card without "signatures"), and a signature that does not verify is advice only.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.1 Canonicalization Requirements',
          quote:
            'Before signing, the Agent Card content MUST be canonicalized using the JSON Canonicalization Scheme (JCS) as defined in RFC 8785.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.1 Canonicalization Requirements',
          quote: 'Signature Field Exclusion: The signatures field itself MUST be excluded from the content being signed to avoid circular dependencies.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.3 Signature Verification',
          quote: 'Retrieve the public key using the kid and jku (or from a trusted key store)',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§8.4.3 Signature Verification',
          quote: 'Clients SHOULD verify at least one signature before trusting an Agent Card',
          keyword: 'none',
        },
      ],
      note: 'A signature must verify over the RFC 8785 form of the card without "signatures" (default values removed, §8.4.1 rule 1); one that does not was made over other bytes, or the card was changed after signing. A signature whose key cannot be found (no key for its kid, jku unreachable, unsupported alg) cannot be judged and is skipped with the reason. The "SHOULD" on clients is quoted for context only (keyword none here: it binds the client).',
    },
  },

  'card.strict-lint': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          file: 'a2a.json',
          section: 'AgentCard.documentationUrl',
          quote: '"documentationUrl": { "type": "string", "title": "DocumentationUrl" }',
          keyword: 'none',
        },
      ],
      note: 'The schema forbids no additional members (no additionalProperties: false): unknown fields are valid. The lint reports portability to strict parsers, not conformance; type errors it lists are judged by the field checks.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'AgentCard.documentationUrl',
          quote: '"documentationUrl": { "description": "A URL to documentation for the agent.", "type": "string" }',
          keyword: 'none',
        },
      ],
      note: 'The schema forbids no additional members: unknown fields are valid; a non-core preferredTransport is an open form string. The lint reports portability, not conformance.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'AgentCard.iconUrl',
          quote: '"iconUrl": { "description": "An optional URL to an icon for the agent.", "type": "string" }',
          keyword: 'none',
        },
      ],
      note: 'The schema forbids no additional members: unknown fields are valid; other transport values MAY be used (§5.5.5). The lint reports portability, not conformance.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.7 Field Presence and Optionality',
          quote: 'Arrays marked as required MUST contain at least one element.',
          keyword: 'MUST',
        },
        { doc: 'a2a-v1.0.1', section: '§8.4.1 Canonicalization Requirements', quote: 'skills: [] - REQUIRED field → include', keyword: 'none' },
      ],
      level: 'MAY',
      note: 'Receivers SHOULD ignore unrecognized fields, so unknown fields are not a defect of the card. Empty skills: §5.7 (non-empty MUST) contradicts the §8.4.1 example that keeps "skills": [] as valid. Both make the lint advisory.',
    },
  },

  'card.extended': {
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§7.10 agent/authenticatedExtendedCard',
          quote:
            'Authentication: The client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§7.10 agent/authenticatedExtendedCard',
          quote: 'Endpoint URL: {AgentCard.url}/../agent/authenticatedExtendedCard (relative to the base URL specified in the public Agent Card).',
          keyword: 'none',
        },
        { doc: 'a2a-v0.2.6', section: '§7.10 agent/authenticatedExtendedCard', quote: 'URL: agent/authenticatedExtendedCard', keyword: 'none' },
      ],
      note: 'Serving the extended card without credentials, when the card declares security, breaks the §4.4 MUST. The location is ambiguous ("{url}/../agent/authenticatedExtendedCard" vs the JSON-RPC tab naming a POST method): not finding it with credentials is an advisory.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§7.10 agent/getAuthenticatedExtendedCard',
          quote:
            'Authentication: The client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§8.2 A2A-Specific Errors',
          quote:
            '| -32007 | AuthenticatedExtendedCardNotConfiguredError | Authenticated Extended Card not configured | The agent does not have an Authenticated Extended Card configured.|',
          keyword: 'none',
        },
      ],
      note: 'Serving the extended card without credentials, when the card declares security, breaks the §4.4 MUST. Answering -32007 with credentials is a defined outcome, not a failure.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§13.3 Extended Agent Card Access Control',
          quote: 'The Get Extended Agent Card operation MUST require authentication',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§13.3 Extended Agent Card Access Control',
          quote: 'When support is declared but no extended card is configured, the operation MUST return ExtendedAgentCardNotConfiguredError',
          keyword: 'MUST',
        },
      ],
      note: 'Serving the extended card anonymously is a MUST failure. ExtendedAgentCardNotConfiguredError with credentials is the required answer when no extended card is configured, not a failure.',
    },
  },
};
