import { Controller, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import {
  ACCESS_CHECKS_PER_CALL,
  internalRoutes,
  type InternalAnswerOf,
  type ParsedInternalRequestOf,
  type SessionAccess,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  Input,
  InternalClient,
  InternalEndpoint,
  KitModule,
  Metrics,
  SessionAccessClient,
  createLogger,
  createServiceApp,
  type AuthUser,
} from '../src';
import { waitFor } from '../src/testing';
import { SERVICE } from './test-service';

type Check = ParsedInternalRequestOf<'studiesAccess'>;

/**
 * A stand-in of studies' access routes, served by the kit as studies serves them (proto's routes,
 * the service-token guard, validation): answers from `roles`, records each call, and can hold a
 * call (to let checks pile up behind it) or fail the next one.
 */
const studies = {
  /** `${sessionId}:${userId}` -> role; any other pair is 'none' in an unknown session. */
  roles: new Map<string, SessionAccess['role']>(),
  calls: [] as { route: 'single' | 'batch'; items: Check[] }[],
  /** How many of the next calls fail (a 500: the client's 503). */
  failCalls: 0,
  /** While set, calls wait for it before they answer (what they answer was read when they came). */
  hold: null as Promise<void> | null,
  reset() {
    this.roles.clear();
    this.calls = [];
    this.failCalls = 0;
    this.hold = null;
  },
  async answer(route: 'single' | 'batch', items: Check[]): Promise<SessionAccess[]> {
    this.calls.push({ route, items });
    // Read when the call comes, answered after any hold: as studies reads its tables, then replies.
    const answers = items.map(({ sessionId, userId }): SessionAccess => {
      const role = this.roles.get(`${sessionId}:${userId}`);
      return role ? { role, sessionType: 'chat' } : { role: 'none', sessionType: null };
    });
    if (this.hold) await this.hold;
    if (this.failCalls > 0) {
      this.failCalls -= 1;
      throw new Error('studies failing on purpose');
    }
    return answers;
  },
};

@Controller()
class StudiesStandIn {
  @InternalEndpoint(internalRoutes.studiesAccess)
  async access(@Input() check: Check): Promise<InternalAnswerOf<'studiesAccess'>> {
    return (await studies.answer('single', [check]))[0]!;
  }

  @InternalEndpoint(internalRoutes.studiesAccessBatch)
  async accessBatch(
    @Input() { items }: ParsedInternalRequestOf<'studiesAccessBatch'>,
  ): Promise<InternalAnswerOf<'studiesAccessBatch'>> {
    return { access: await studies.answer('batch', items) };
  }
}

@Module({ controllers: [StudiesStandIn] })
class StandInFeatureModule {}

@Module({})
class StandInRootModule {}

const user = (email = 'ada@lab.test'): AuthUser => ({
  id: randomUUID(),
  email,
  name: 'Ada',
  type: 'participant',
  loginId: randomUUID(),
});

describe('SessionAccessClient', () => {
  let app: INestApplication;
  let internal: InternalClient;
  beforeAll(async () => {
    const logger = createLogger({ service: 'studies', level: 'silent', destination: new PassThrough() });
    const metrics = new Metrics('studies');
    const root: DynamicModule = {
      module: StandInRootModule,
      imports: [
        KitModule.forRoot({
          service: 'studies',
          logger,
          jwtSecret: 'a'.repeat(40),
          serviceToken: SERVICE,
          urlOf: () => 'http://127.0.0.1:1',
          metrics,
        }),
        StandInFeatureModule,
      ],
    };
    app = await createServiceApp(root, { logger, metrics, trustProxy: 'loopback' });
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    internal = new InternalClient({ serviceToken: SERVICE, urlOf: () => url });
  });
  afterAll(() => app.close());
  beforeEach(() => studies.reset());

  const clients: SessionAccessClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.onModuleDestroy()));
  const batched = (cacheMs = 60_000) => {
    const client = new SessionAccessClient(internal, { cacheMs, batch: true });
    clients.push(client);
    return client;
  };
  /** The answer if it is there at once (from the cache), 'asked' if it had to wait for studies. */
  const atOnce = (answer: Promise<SessionAccess>) =>
    Promise.race([answer, new Promise<'asked'>((resolve) => setImmediate(() => resolve('asked')))]);
  /** Holds every call until the returned function is called. */
  const holdCalls = () => {
    let release!: () => void;
    studies.hold = new Promise((resolve) => (release = resolve));
    return () => {
      studies.hold = null;
      release();
    };
  };

  describe('batched', () => {
    it('sends the misses that arrive while a call is in flight as one call, each caller getting its own answer', async () => {
      const client = batched();
      const [s1, s2] = [randomUUID(), randomUUID()];
      const [owner, member, stranger] = [user(), user('cy@uni.test'), user('dee@uni.test')];
      studies.roles.set(`${s1}:${owner.id}`, 'owner');
      studies.roles.set(`${s1}:${member.id}`, 'participant');
      studies.roles.set(`${s2}:${member.id}`, 'participant');

      const release = holdCalls();
      const first = client.access(owner, s2);
      const asked = [
        client.access(member, s2),
        client.access(owner, s1),
        client.access(stranger, s1),
        client.access(member, s1),
        client.access(stranger, randomUUID()),
      ];
      release();
      await expect(first).resolves.toEqual({ role: 'none', sessionType: null });
      expect(await Promise.all(asked)).toEqual([
        { role: 'participant', sessionType: 'chat' },
        { role: 'owner', sessionType: 'chat' },
        { role: 'none', sessionType: null },
        { role: 'participant', sessionType: 'chat' },
        { role: 'none', sessionType: null },
      ]);
      // The first went at once, alone; the five that arrived meanwhile went together.
      expect(studies.calls.map((c) => [c.route, c.items.length])).toEqual([
        ['batch', 1],
        ['batch', 5],
      ]);
      expect(studies.calls[1]!.items[1]).toEqual({ sessionId: s1, userId: owner.id, email: owner.email });
    });

    it('asks once for a check already waiting or in flight, and answers from the cache after', async () => {
      const client = batched();
      const sessionId = randomUUID();
      const [ada, cy] = [user(), user('cy@uni.test')];
      studies.roles.set(`${sessionId}:${ada.id}`, 'owner');
      const release = holdCalls();
      const answers = [
        client.access(ada, sessionId),
        client.access(ada, sessionId),
        client.access(cy, sessionId),
        client.access(cy, sessionId),
        client.access(ada, sessionId),
      ];
      release();
      const [a1, a2, c1, c2, a3] = await Promise.all(answers);
      expect([a1, a2, a3]).toEqual(Array(3).fill({ role: 'owner', sessionType: 'chat' }));
      expect([c1, c2]).toEqual(Array(2).fill({ role: 'none', sessionType: null }));
      expect(studies.calls.map((c) => c.items.map((i) => i.userId))).toEqual([[ada.id], [cy.id]]);
      await client.access(cy, sessionId);
      expect(studies.calls).toHaveLength(2);
    });

    it(`caps a call at ACCESS_CHECKS_PER_CALL (${ACCESS_CHECKS_PER_CALL}) checks`, async () => {
      const client = batched();
      const release = holdCalls();
      const answers = Array.from({ length: ACCESS_CHECKS_PER_CALL + 11 }, () =>
        client.access(user(), randomUUID()),
      );
      release();
      expect(await Promise.all(answers)).toHaveLength(ACCESS_CHECKS_PER_CALL + 11);
      expect(studies.calls.map((c) => c.items.length)).toEqual([1, ACCESS_CHECKS_PER_CALL, 10]);
    });

    it('rejects every caller of a failed call, keeps none of its answers, and asks again next time', async () => {
      const client = batched();
      const sessionId = randomUUID();
      const people = [user(), user('cy@uni.test'), user('dee@uni.test')];
      for (const p of people) studies.roles.set(`${sessionId}:${p.id}`, 'participant');

      const release = holdCalls();
      // Both calls fail: the first, then the group that waited behind it.
      studies.failCalls = 2;
      const first = client.access(people[0]!, sessionId);
      const grouped = people.slice(1).map((p) => client.access(p, sessionId));
      release();
      await expect(first).rejects.toMatchObject({ httpStatus: 503 });
      for (const answer of grouped) await expect(answer).rejects.toMatchObject({ httpStatus: 503 });
      expect(studies.calls.map((c) => c.items.length)).toEqual([1, 2]);

      // Nothing failed was kept: each asks again, and gets its answer.
      const again = await Promise.all(people.map((p) => client.access(p, sessionId)));
      expect(again).toEqual(Array(3).fill({ role: 'participant', sessionType: 'chat' }));
      expect(studies.calls.map((c) => c.items.length)).toEqual([1, 2, 1, 2]);
    });

    it('refuses a check studies would refuse alone, with its words, and the others of the moment go on', async () => {
      const client = batched();
      const sessionId = randomUUID();
      const ada = user();
      studies.roles.set(`${sessionId}:${ada.id}`, 'owner');
      const bad = client.access(user('not-an-email'), sessionId);
      const good = client.access(ada, sessionId);
      await expect(bad).rejects.toMatchObject({
        httpStatus: 400,
        message: 'email: is not a valid e-mail address',
      });
      await expect(good).resolves.toEqual({ role: 'owner', sessionType: 'chat' });
      expect(studies.calls.map((c) => c.items.map((i) => i.userId))).toEqual([[ada.id]]);
    });

    it('forget() drops the cached answers about those sessions only: the next check asks again', async () => {
      const client = batched();
      const [changed, kept] = [randomUUID(), randomUUID()];
      const ada = user();
      studies.roles.set(`${changed}:${ada.id}`, 'participant');
      studies.roles.set(`${kept}:${ada.id}`, 'participant');
      await Promise.all([client.access(ada, changed), client.access(ada, kept)]);
      const callsBefore = studies.calls.length;

      studies.roles.delete(`${changed}:${ada.id}`);
      studies.roles.delete(`${kept}:${ada.id}`);
      client.forget([changed]);
      await expect(client.access(ada, changed)).resolves.toEqual({ role: 'none', sessionType: null });
      await expect(client.access(ada, kept)).resolves.toEqual({ role: 'participant', sessionType: 'chat' });
      expect(studies.calls.length).toBe(callsBefore + 1);
    });

    it('renews the checks in use ahead, so a user writing now and then never waits, and no answer is older than the cache period', async () => {
      const client = batched(2000);
      const sessionId = randomUUID();
      const ada = user();
      studies.roles.set(`${sessionId}:${ada.id}`, 'participant');
      await client.access(ada, sessionId);
      // Two and a half cache periods of a check every 200 ms (the user's pace, not a wait): without
      // renewal, the checks after each expiry would wait for studies.
      const answers: unknown[] = [];
      for (let i = 0; i < 25; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answers.push(await atOnce(client.access(ada, sessionId)));
      }
      expect(answers).toEqual(Array(25).fill({ role: 'participant', sessionType: 'chat' }));
      // Renewed every half period (about 5 times in 5 s), never per check.
      expect(studies.calls.length).toBeGreaterThanOrEqual(3);
      expect(studies.calls.length).toBeLessThan(12);

      // A scope change shows within a period.
      studies.roles.delete(`${sessionId}:${ada.id}`);
      await waitFor(
        async () => (await client.access(ada, sessionId)).role === 'none',
        'the renewed answer',
        3000,
      );
    });

    it('drops a renewal read before a forget(): the old answer does not come back', async () => {
      const client = batched(400);
      const sessionId = randomUUID();
      const ada = user();
      studies.roles.set(`${sessionId}:${ada.id}`, 'participant');
      await client.access(ada, sessionId);
      const release = holdCalls();
      await waitFor(() => studies.calls.length === 2, 'a renewal in flight', 2000);
      studies.roles.delete(`${sessionId}:${ada.id}`);
      client.forget([sessionId]);
      release();
      // The fresh check waits behind the renewal, which answers first: it must not be kept.
      await expect(client.access(ada, sessionId)).resolves.toEqual({ role: 'none', sessionType: null });
      await expect(client.access(ada, sessionId)).resolves.toEqual({ role: 'none', sessionType: null });
    });

    it('without a cache still batches, but asks each time', async () => {
      const client = batched(0);
      const sessionId = randomUUID();
      const ada = user();
      const release = holdCalls();
      const answers = [0, 1, 2].map(() => client.access(ada, sessionId));
      release();
      await Promise.all(answers);
      expect(studies.calls.map((c) => [c.route, c.items.length])).toEqual([
        ['batch', 1],
        ['batch', 2],
      ]);
    });
  });

  it('unbatched (content, records, signal): one studiesAccess call per check', async () => {
    const client = new SessionAccessClient(internal);
    const sessionId = randomUUID();
    const ada = user();
    studies.roles.set(`${sessionId}:${ada.id}`, 'owner');
    const answers = await Promise.all([0, 1, 2].map(() => client.requireOwner(ada, sessionId)));
    expect(answers).toEqual(Array(3).fill({ role: 'owner', sessionType: 'chat' }));
    expect(studies.calls.map((c) => c.route)).toEqual(['single', 'single', 'single']);
    await expect(client.requireMember(user(), sessionId)).rejects.toMatchObject({ httpStatus: 404 });
  });
});
