import { SERVICES, type RestServiceName } from '../src/services';
import { routeList, routes, findRoute } from '../src/routes';
import { authRoutes } from '../src/routes/auth.routes';
import { studiesRoutes } from '../src/routes/studies.routes';
import { contentRoutes } from '../src/routes/content.routes';
import { recordsRoutes } from '../src/routes/records.routes';
import { signalRoutes } from '../src/routes/signal.routes';
import { studyExportRoutes } from '../src/routes/study-export.routes';
import { participationRoutes } from '../src/routes/participation.routes';
import { consentRoutes } from '../src/routes/consent.routes';
import { deviceCheckRoutes } from '../src/routes/device-check.routes';
import { exposureRoutes } from '../src/routes/exposure.routes';

/** Spec section 7, "The calls it makes": method and path of every row, copied verbatim. */
const SPEC_CALLS = [
  'POST /auth/magiclogin',
  'POST /setNewUser',
  'GET /getUserTokens',
  'GET /getUserFromToken',
  'POST /getAccessTokenFromRefreshToken',
  'GET /getSessionInfo',
  'GET /getAllParticipants',
  'POST /editSessionInfo',
  'GET /getActions',
  'POST /addAction',
  'POST /editAction',
  'POST /deleteAction',
  'GET /getVideoInfo',
  'POST /uploadVideo',
  'POST /deleteVideo',
  'GET /getPrompts',
  'POST /addPrompt',
  'POST /deletePrompt',
  'POST /editPrompt',
  'POST /deleteUser',
  'GET /getGroups',
  'POST /createGroup',
  'POST /editGroup',
  'POST /deleteGroup',
  'GET /getSessions',
  'POST /createSession',
  'POST /deleteSession',
  'GET /getMessages',
  'POST /addMessage',
  'POST /editMessage',
  'POST /deleteMessage',
  'GET /getPixels',
  'POST /addPixel',
  'POST /deletePixel',
  'GET /getParticipantSessions',
] as const;

const REST_SERVICES: readonly RestServiceName[] = ['auth', 'studies', 'content', 'records', 'signal'];
const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('route table against spec section 7', () => {
  it('copies all 35 rows of the table', () => {
    expect(SPEC_CALLS).toHaveLength(35);
    expect(new Set(SPEC_CALLS).size).toBe(SPEC_CALLS.length);
  });

  it.each(SPEC_CALLS.map((call) => [call]))('holds %s with the same method and path', (call) => {
    const [method, path] = call.split(' ');
    const route = routeList.find((r) => r.path === path);
    expect(route).toBeDefined();
    expect(route?.method).toBe(method);
    expect(findRoute(method as 'GET' | 'POST', path!)).toBe(route);
  });

  it('marks exactly the routes outside the spec as extensions', () => {
    const spec = new Set<string>(SPEC_CALLS);
    for (const route of routeList) {
      expect({ route: key(route), inSpec: spec.has(key(route)) }).toEqual({
        route: key(route),
        inSpec: route.extension !== true,
      });
    }
  });

  it('has extensions, each with a reason in its summary', () => {
    const extensions = routeList.filter((r) => r.extension);
    expect(extensions.map(key).sort()).toEqual([
      'GET /assets/:sessionId/:file',
      'GET /exportRecords',
      'GET /exportStudy',
      'GET /getCallSettings',
      'GET /getDeviceChecks',
      'GET /getExposureEvents',
      'GET /getJoinLink',
      'GET /getJoinLinkInfo',
      'GET /getMyConsent',
      'GET /getPlayback',
      'GET /getRecordCounts',
      'GET /getSessionConsent',
      'GET /getSessionPeople',
      'GET /getSessionWithdrawals',
      'GET /getSignInProviders',
      'GET /oidc/callback',
      'GET /oidc/start',
      'POST /acceptConsent',
      'POST /createJoinLink',
      'POST /enterSession',
      'POST /enterThroughLink',
      'POST /joinSession',
      'POST /logout',
      'POST /resendInvitation',
      'POST /revokeJoinLink',
      'POST /saveDeviceCheck',
      'POST /setSessionConsent',
      'POST /withdrawFromSession',
    ]);
    for (const route of extensions) expect(route.summary.length).toBeGreaterThan(40);
  });

  it('gives every route a unique path and a unique method + path', () => {
    const paths = routeList.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(routeList.map(key)).size).toBe(routeList.length);
  });

  it('loses no route when the service tables are merged (no name clash)', () => {
    const parts = [
      authRoutes,
      studiesRoutes,
      participationRoutes,
      consentRoutes,
      contentRoutes,
      recordsRoutes,
      studyExportRoutes,
      deviceCheckRoutes,
      exposureRoutes,
      signalRoutes,
    ];
    const total = parts.reduce((sum, part) => sum + Object.keys(part).length, 0);
    expect(Object.keys(routes)).toHaveLength(total);
    expect(routeList).toHaveLength(total);
  });

  it('owns every route by a REST service', () => {
    for (const route of routeList) {
      expect(REST_SERVICES).toContain(route.service);
      expect(SERVICES).toHaveProperty(route.service);
    }
  });

  it('routes no public path under /internal/', () => {
    for (const route of routeList) expect(route.path.startsWith('/internal')).toBe(false);
  });

  it('has the routeList entry names match the keys of routes', () => {
    for (const entry of routeList) expect(routes[entry.name].path).toBe(entry.path);
  });

  it('keeps the spec owner of each call', () => {
    const owner = (name: keyof typeof routes) => routes[name].service;
    expect(owner('getGroups')).toBe('studies');
    expect(owner('getParticipantSessions')).toBe('studies');
    expect(owner('getActions')).toBe('content');
    expect(owner('uploadVideo')).toBe('content');
    expect(owner('getPixels')).toBe('records');
    expect(owner('exportRecords')).toBe('records');
    expect(owner('getCallSettings')).toBe('signal');
  });

  it('declares the upload as multipart with the file in `file`, and the export as CSV', () => {
    expect(routes.uploadVideo.multipartFile).toBe('file');
    expect(routeList.filter((r) => r.multipartFile).map((r) => r.name)).toEqual(['uploadVideo']);
    expect(routes.exportRecords.produces).toBe('csv');
    expect(routes.exportRecords.method).toBe('GET');
    expect(routeList.filter((r) => r.produces === 'file').map((r) => r.name)).toEqual(['videoAsset']);
  });

  it("only the sign-in calls are public (the spec's, ours for providers, and a join link's landing and entry)", () => {
    const publicRoutes = routeList.filter((r) => r.access === 'public').map((r) => r.name);
    expect(publicRoutes.sort()).toEqual(
      [
        'getAccessTokenFromRefreshToken',
        'getUserTokens',
        'logout',
        'magicLogin',
        'setNewUser',
        'getSignInProviders',
        'oidcStart',
        'oidcCallback',
        'getJoinLinkInfo',
        'enterThroughLink',
      ].sort(),
    );
  });

  it('lets participants reach what the live session and their list need, and nothing that edits a session', () => {
    const userRoutes = routeList.filter((r) => r.access === 'user').map((r) => r.name);
    expect(userRoutes.sort()).toEqual(
      [
        // Their own part in a session: consent, taking part, joining by link, a device check, withdrawing.
        'acceptConsent',
        'enterSession',
        'getMyConsent',
        'joinSession',
        'saveDeviceCheck',
        'withdrawFromSession',
        'addMessage',
        'deleteUser',
        'getActions',
        'getCallSettings',
        'getMessages',
        'getParticipantSessions',
        'getSessionInfo',
        'getUserFromToken',
        'videoAsset',
        'getVideoInfo',
      ].sort(),
    );
  });

  it("uses GET only for reads (get..., export..., the video asset) and a sign-in's browser steps", () => {
    for (const route of routeList.filter((r) => r.method === 'GET')) {
      expect(route.name).toMatch(/^(get|export)|^videoAsset$|^oidc(Start|Callback)$/);
    }
    expect(routeList.filter((r) => r.produces === 'redirect').map((r) => r.name)).toEqual([
      'oidcStart',
      'oidcCallback',
    ]);
  });
});
