import { Controller, type INestApplication } from '@nestjs/common';
import { Input, InternalEndpoint, defineService, serviceEnv } from '@uis/kit';
import { internalRoutes, type ParsedInternalRequestOf } from '@uis/proto';
import { bearer } from '@uis/kit/testing';
import { startAuth, type AuthHarness } from './auth-harness';

/**
 * Stand-in for studies' account-deletion endpoint until studies lands: served by the kit
 * exactly as the real one will be (proto route, service-token guard), recording what auth asked.
 */
const asked: ParsedInternalRequestOf<'studiesUserDataDelete'>[] = [];
let failures = 0;

@Controller()
class StudiesStandIn {
  @InternalEndpoint(internalRoutes.studiesUserDataDelete)
  deleteUserData(@Input() input: ParsedInternalRequestOf<'studiesUserDataDelete'>) {
    if (failures > 0) {
      failures--;
      throw new Error('studies could not delete');
    }
    asked.push(input);
    return { message: 'deleted' };
  }
}

const studiesStandIn = defineService({
  name: 'studies',
  env: serviceEnv,
  imports: () => [{ module: class StudiesStandInModule {}, controllers: [StudiesStandIn] }],
});

describe('account deletion asks the services that hold the user’s data first', () => {
  let h: AuthHarness;
  let studies: INestApplication;

  beforeAll(async () => {
    const secrets = { JWT_SECRET: 'j'.repeat(40), SERVICE_TOKEN: 's'.repeat(40), LOG_LEVEL: 'silent' };
    studies = await studiesStandIn.createApp(secrets);
    await studies.listen(0, '127.0.0.1');
    const studiesUrl = (await studies.getUrl()).replace('[::1]', '127.0.0.1');
    h = await startAuth('deletion', { ...secrets, STUDIES_URL: studiesUrl }, ['studies']);
  });
  afterAll(async () => {
    await h.close();
    await studies.close();
  });

  it('calls each owner with the service token, then deletes; a failing owner leaves the account intact', async () => {
    const { token: accessToken, refreshToken } = await h.signUp('leaving@uni.test', 'Leaving');
    const me = await h.http().get('/getUserFromToken').set(bearer(accessToken)).expect(200);

    failures = 1;
    const failed = await h
      .http()
      .post('/deleteUser')
      .set(bearer(accessToken))
      .send({ email: 'leaving@uni.test' })
      .expect(503);
    expect(failed.body.res.message).toMatch(/studies/);
    expect(asked).toEqual([]);
    // The tokens held when the deletion began are refused from then on (nothing can add data while
    // it is deleted); the account is intact, so its refresh token gives a working pair for the retry.
    await h.http().get('/getUserFromToken').set(bearer(accessToken)).expect(401);
    const renewed = (
      await h.http().post('/getAccessTokenFromRefreshToken').send({ refreshToken }).expect(200)
    ).body.res as { accessToken: string; refreshToken: string };
    await h.http().get('/getUserFromToken').set(bearer(renewed.accessToken)).expect(200);

    await h
      .http()
      .post('/deleteUser')
      .set(bearer(renewed.accessToken))
      .send({ email: 'leaving@uni.test' })
      .expect(200);
    expect(asked).toEqual([{ userId: me.body.res.user.id, email: 'leaving@uni.test' }]);
    await h.http().get('/getUserFromToken').set(bearer(renewed.accessToken)).expect(401);
    await h
      .http()
      .post('/getAccessTokenFromRefreshToken')
      .send({ refreshToken: renewed.refreshToken })
      .expect(401);
  });
});
