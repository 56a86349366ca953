import { loadConfig } from '@uis/kit';
import { testSecrets } from '@uis/kit/testing';
import { recordsEnv } from '../records.config';
import { participantIdKey, participantIds } from './participant-ids';

const KEY = 'k'.repeat(32);

describe('participant ids', () => {
  it('are P- and 12 hex digits, the same for an e-mail whatever its case, different between people', () => {
    const ids = participantIds(KEY, 'researcher-1');
    const pat = ids.of('pat@uni.test');
    expect(pat).toMatch(/^P-[0-9a-f]{12}$/);
    expect(ids.of('Pat@Uni.TEST')).toBe(pat);
    expect(ids.of('sam@uni.test')).not.toBe(pat);
  });

  it('are stable across exports of one researcher, and differ between researchers and keys', () => {
    const pat = participantIds(KEY, 'researcher-1').of('pat@uni.test');
    expect(participantIds(KEY, 'researcher-1').of('pat@uni.test')).toBe(pat);
    expect(participantIds(KEY, 'researcher-2').of('pat@uni.test')).not.toBe(pat);
    expect(participantIds('x'.repeat(32), 'researcher-1').of('pat@uni.test')).not.toBe(pat);
  });

  it('take PARTICIPANT_ID_SECRET as the key, or derive one that is not JWT_SECRET itself', () => {
    const jwt = 'j'.repeat(32);
    expect(participantIdKey({ PARTICIPANT_ID_SECRET: KEY, JWT_SECRET: jwt })).toBe(KEY);
    const derived = participantIdKey({ JWT_SECRET: jwt });
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(participantIdKey({ JWT_SECRET: jwt })).toBe(derived);
  });

  it('read an empty PARTICIPANT_ID_SECRET (compose and k8s give one when it is not set) as unset', () => {
    const env = { ...testSecrets(), DATABASE_URL: 'postgres://x@127.0.0.1/db' };
    expect(
      loadConfig(recordsEnv, { ...env, PARTICIPANT_ID_SECRET: '' }).PARTICIPANT_ID_SECRET,
    ).toBeUndefined();
    expect(loadConfig(recordsEnv, { ...env, PARTICIPANT_ID_SECRET: KEY }).PARTICIPANT_ID_SECRET).toBe(KEY);
    expect(() => loadConfig(recordsEnv, { ...env, PARTICIPANT_ID_SECRET: 'short' })).toThrow(
      /PARTICIPANT_ID_SECRET/,
    );
  });
});
