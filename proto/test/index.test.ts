import * as proto from '../src';

describe('package entry', () => {
  it('re-exports every module', () => {
    const expected = [
      'SERVICES', // services
      'STATUS', // envelope
      'defineRoutes', // route
      'VALIDATION_TEXTS', // fields
      'UI_TEXTS', // constants
      'parseClockTime', // clock
      'QUEUES', // queues
      'routes', // routes
      'routeList',
      'Scope',
      'Action',
      'PixelRecord',
      'internalRoutes', // internal
      'USER_DATA_OWNERS',
      'clientEventSchemas', // events
      'ackOk',
    ];
    for (const name of expected) expect(proto).toHaveProperty(name);
  });

  it('exposes the same route objects as the routes module', () => {
    expect(proto.routes.getGroups.path).toBe('/getGroups');
    expect(proto.routeList.find((r) => r.name === 'getGroups')?.service).toBe('studies');
  });
});
