import SwaggerParser from '@apidevtools/swagger-parser';
import { openApiDocument, routeList } from '../src';

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content: Record<string, unknown> }>;
};
type Paths = Record<string, Record<string, Operation>>;

describe('openApiDocument', () => {
  const document = openApiDocument('1.2.3');
  const paths = document.paths as Paths;

  it('validates as OpenAPI 3.1', async () => {
    // validate() dereferences in place: give it a copy.
    const api = await SwaggerParser.validate(structuredClone(document) as never);
    expect(api).toMatchObject({ openapi: '3.1.0', info: { version: '1.2.3' } });
    // The validator does refuse: a parameter that does not say where it goes is not OpenAPI.
    const broken = structuredClone(document) as { paths: Record<string, Record<string, unknown>> };
    broken.paths['/getSessions']!.get = {
      ...(paths['/getSessions']!.get as object),
      parameters: [{ name: 'groupId' }],
    };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it("holds every route of proto's table at its method and path, and nothing else", () => {
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
      ),
    );
    const expected = routeList.map(
      (route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')} ${route.name}`,
    );
    expect(operations.sort()).toEqual(expected.sort());
    expect(operations.some((operation) => operation.includes('/internal/'))).toBe(false);
  });

  it('says who may call each route, and where GET and POST take their input', () => {
    expect(paths['/getUserTokens']?.get?.security).toEqual([]);
    expect(paths['/getSessions']?.get?.security).toEqual([{ bearer: [] }, { cookie: [] }]);
    expect(paths['/getSessions']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'groupId', in: 'query', required: true }),
    ]);
    expect(Object.keys(paths['/createGroup']?.post?.requestBody?.content ?? {})).toEqual([
      'application/json',
    ]);
    expect(Object.keys(paths['/uploadVideo']?.post?.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    expect(paths['/assets/{sessionId}/{file}']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'sessionId', in: 'path', required: true }),
      expect.objectContaining({ name: 'file', in: 'path', required: true }),
    ]);
    expect(Object.keys(paths['/getSessions']?.get?.responses['200']?.content ?? {})).toEqual([
      'application/json',
    ]);
  });
});
