import { z } from 'zod';
import { TOKEN_COOKIES } from './constants';
import { ErrorEnvelope, successEnvelope } from './envelope';
import type { RouteAccess } from './route';
import { routeList, type RouteListEntry } from './routes';

/** A JSON Schema object as zod writes it (draft 2020-12, the dialect of OpenAPI 3.1). */
type JsonSchema = Record<string, unknown>;

/**
 * A schema as JSON Schema for one side of the wire: `input` for what a client sends (defaults
 * optional), `output` for what it receives. What JSON Schema cannot say (a refinement's rule, a
 * transform) is left to the description and the server's validation answer.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token from /getUserTokens or /getAccessTokenFromRefreshToken.',
  },
  cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: TOKEN_COOKIES.accessToken,
    description:
      "The HttpOnly cookie the server sets on signing in. It counts for a POST only with the header `X-Requested-With: uis` (what the web app sends; another site's page cannot), so Swagger UI's Try it out works on GETs with it, and needs the bearer token for changes.",
  },
  query: {
    type: 'apiKey',
    in: 'query',
    name: 'accessToken',
    description: 'The access token as a query parameter, on the routes that accept it.',
  },
} as const;

const WHO: Record<RouteAccess, string> = {
  public: 'Anyone (no token).',
  user: 'A signed-in user.',
  researcher: 'A signed-in researcher.',
};

/** The `:name` parameters of a route's path (`/assets/:sessionId/:file`). */
const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
/** The path as OpenAPI writes it: `/assets/{sessionId}/{file}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The route's request as query parameters (GET) or a body (JSON, or the multipart form of an upload). */
function requestOf(route: RouteListEntry): Record<string, unknown> {
  const schema = jsonSchema(route.request, 'input');
  if (route.method === 'GET') {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const inPath = new Set(pathParameters(route.path));
    return {
      parameters: Object.entries(properties).map(([name, property]) => ({
        name,
        in: inPath.has(name) ? 'path' : 'query',
        required: inPath.has(name) || required.has(name),
        schema: property,
      })),
    };
  }
  if (route.multipartFile) {
    const properties = {
      ...((schema.properties ?? {}) as Record<string, JsonSchema>),
      [route.multipartFile]: { type: 'string', format: 'binary' },
    };
    const required = [...((schema.required ?? []) as string[]), route.multipartFile];
    return {
      requestBody: {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
      },
    };
  }
  return { requestBody: { required: true, content: jsonContent(schema) } };
}

const ERROR_ANSWER = {
  description: 'An error: `res.message` for people, `res.code` for programs (see the status code).',
  content: jsonContent(jsonSchema(ErrorEnvelope, 'output')),
};

/** A browser's step: every outcome, a refusal too, is a redirect (the page it lands on says what happened). */
const REDIRECT_ANSWER = {
  description: 'A redirect: to the provider, or back to the app (with an error code when it failed).',
  headers: { Location: { schema: { type: 'string', format: 'uri' } } },
};

function answerOf(route: RouteListEntry): Record<string, unknown> {
  if (route.produces === 'csv')
    return {
      description: 'The records as a CSV file.',
      content: { 'text/csv': { schema: { type: 'string' } } },
    };
  if (route.produces === 'zip')
    return {
      description: 'A ZIP archive.',
      content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
    };
  if (route.produces === 'file')
    return {
      description: 'The file.',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  return { description: 'Done.', content: jsonContent(jsonSchema(successEnvelope(route.answer), 'output')) };
}

function operationOf(route: RouteListEntry): Record<string, unknown> {
  const signedIn = route.access === 'public' ? [] : [{ bearer: [] }, { cookie: [] }];
  const security = route.tokenInQuery ? [...signedIn, { query: [] }] : signedIn;
  return {
    operationId: route.name,
    tags: [route.service],
    summary: route.summary.split('. ')[0],
    description: `${route.summary}\n\nWho may call it: ${WHO[route.access]}${route.extension ? '\n\nNot in the spec: added by this implementation.' : ''}`,
    ...(route.extension ? { 'x-extension': true } : {}),
    security,
    ...requestOf(route),
    responses:
      route.produces === 'redirect'
        ? { '302': REDIRECT_ANSWER }
        : { '200': answerOf(route), default: ERROR_ANSWER },
  };
}

/**
 * The public REST API as an OpenAPI 3.1 document, made from proto's route table (paths, methods,
 * access, request and answer schemas, summaries): the table stays the one source of truth. Every
 * answer is the `{status, res}` envelope; internal routes are not part of it.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routeList) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'User Interaction Simulator API',
      version,
      description:
        'The REST API of the User Interaction Simulator, generated from its route table (proto/src/routes). ' +
        'The live session runs over socket.io at /socket.io/ (events in proto/src/events.ts) and the call over PeerJS at /stream/.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routeList.map((route) => route.service))].map((name) => ({ name })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  };
}
