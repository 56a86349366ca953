import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, pgErrorCode } from './pg-errors';

describe('Postgres errors', () => {
  it('reads the SQLSTATE from pg, and from TypeORM, which wraps it', () => {
    const pgError = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(pgErrorCode(pgError)).toBe('23505');
    expect(pgErrorCode(new QueryFailedError('INSERT', [], pgError))).toBe('23505');
    expect(pgErrorCode(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(pgErrorCode('not an error')).toBeUndefined();
  });

  it.each([
    ['a server shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'a server starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['a connection failure', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a full pool', new Error('timeout exceeded when trying to connect')],
    ['a wrapped one', new QueryFailedError('SELECT 1', [], Object.assign(new Error('x'), { code: '57P01' }))],
  ])('calls %s unavailable (503)', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('does not call a wrong query unavailable', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
