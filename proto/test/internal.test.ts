import {
  AppendedMessage,
  INTERNAL_PATH_PREFIX,
  SESSION_DATA_OWNERS,
  USER_DATA_OWNERS,
  internalRouteList,
  internalRoutes,
  sessionDataDeletePath,
  sessionDataDeleteRoute,
  userDataDeletePath,
  userDataDeleteRoute,
} from '../src/internal';
import { routeList } from '../src/routes';

const sessionId = '0b8f7a52-4a1e-4f4e-9d53-2f6a3a1c9e10';
const userId = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

describe('internal routes', () => {
  it('live under /internal/<owning service>/ and never in the public table', () => {
    const publicPaths = new Set(routeList.map((r) => r.path));
    for (const route of internalRouteList) {
      expect(route.path.startsWith(`${INTERNAL_PATH_PREFIX}${route.service}/`)).toBe(true);
      expect(publicPaths.has(route.path)).toBe(false);
      expect(route).not.toHaveProperty('access');
    }
  });

  it('have a unique method + path each', () => {
    const keys = internalRouteList.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('answer session access for realtime, content and records', () => {
    const access = internalRoutes.studiesAccess;
    expect(access.method).toBe('GET');
    expect(access.path).toBe('/internal/studies/access');
    expect(access.request.parse({ sessionId, userId, email: 'A@b.co' })).toEqual({
      sessionId,
      userId,
      email: 'a@b.co',
    });
    expect(access.answer.parse({ role: 'participant', sessionType: 'video' })).toEqual({
      role: 'participant',
      sessionType: 'video',
    });
    expect(access.answer.parse({ role: 'none', sessionType: null })).toEqual({
      role: 'none',
      sessionType: null,
    });
    expect(access.answer.safeParse({ role: 'admin', sessionType: 'video' }).success).toBe(false);
  });

  it('give every service that may hold a user’s data an account-deletion endpoint', () => {
    for (const service of ['studies', 'records'] as const) {
      const route = internalRouteList.find((r) => r.path === userDataDeletePath(service));
      expect(userDataDeleteRoute(service).path).toBe(route?.path);
      expect(route?.method).toBe('POST');
      expect(route?.service).toBe(service);
      expect(route?.request.safeParse({ userId, email: 'a@b.co' }).success).toBe(true);
      expect(route?.request.safeParse({ email: 'a@b.co' }).success).toBe(false);
    }
    expect(userDataDeletePath('records')).toBe('/internal/records/user-data/delete');
  });

  it('give content and records a session-deletion endpoint', () => {
    for (const service of ['content', 'records'] as const) {
      const route = internalRouteList.find((r) => r.path === sessionDataDeletePath(service));
      expect(route?.service).toBe(service);
      expect(route?.request.safeParse({ sessionIds: [sessionId] }).success).toBe(true);
      expect(route?.request.safeParse({ sessionIds: [] }).success).toBe(false);
    }
  });

  it('name the services that hold a user’s or a session’s data, each with its delete endpoint', () => {
    expect(USER_DATA_OWNERS).toEqual(['studies', 'records']);
    expect(SESSION_DATA_OWNERS).toEqual(['content', 'records']);
    for (const owner of SESSION_DATA_OWNERS) {
      expect(sessionDataDeleteRoute(owner).path).toBe(sessionDataDeletePath(owner));
    }
  });

  it('let realtime append messages and clicks with the same limits as the public routes', () => {
    // Each item of realtime's group commit (recordsAppendMessages).
    const message = AppendedMessage;
    expect(message.parse({ sessionId, userId, email: 'ada@lab.test', name: 'Ada', message: ' hi ' })).toEqual(
      {
        sessionId,
        userId,
        email: 'ada@lab.test',
        name: 'Ada',
        message: 'hi',
        videoTime: null,
        actionId: null,
      },
    );
    expect(
      message.safeParse({ sessionId, userId, email: 'ada@lab.test', name: '', message: 'hi' }).success,
    ).toBe(false);
    expect(message.safeParse({ sessionId, userId, name: 'Ada', message: 'hi' }).success).toBe(false);
    const pixel = internalRoutes.recordsAppendPixel.request;
    const click = { sessionId, userId, email: 'ada@lab.test', name: 'Ada', x: 0, y: 1, color: 'n/a' };
    expect(pixel.parse(click)).toEqual({ ...click, videoTime: null });
    expect(pixel.safeParse({ ...click, x: 1.2 }).success).toBe(false);
  });
});
