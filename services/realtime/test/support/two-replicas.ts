import { TEST_REDIS_URL, randomSuffix } from '@uis/kit/testing';
import { LiveStack, type TestPerson, type Replica } from './live-stack';
import { RecordingConnection } from './recording-connection';

/** Two realtime replicas on one Redis over one stack, with a researcher and two participants. */
export interface TwoReplicas {
  stack: LiveStack;
  a: Replica;
  b: Replica;
  researcher: TestPerson;
  pat: TestPerson;
  pia: TestPerson;
  /** A connected client of `person` on `replica`, closed after the test. */
  connect: (replica: Replica, person: TestPerson) => Promise<RecordingConnection>;
  /** The researcher on A and both participants on B, all joined to a new session. */
  liveSession: () => Promise<{
    sessionId: string;
    owner: RecordingConnection;
    p1: RecordingConnection;
    p2: RecordingConnection;
  }>;
}

/**
 * Starts the two replicas before the calling describe block's tests and stops them after; each
 * test's clients are closed after it. Read the fields inside tests (they are set by then).
 */
export function useTwoReplicas(label: string): TwoReplicas {
  const clients: RecordingConnection[] = [];
  const fixture = {
    connect: async (replica: Replica, person: TestPerson) => {
      const client = new RecordingConnection(replica.url, { token: person.token });
      clients.push(client);
      return client.connected();
    },
    liveSession: async () => {
      const { stack, a, b, researcher, pat, pia } = fixture;
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      const [owner, p1, p2] = await Promise.all([
        fixture.connect(a, researcher),
        fixture.connect(b, pat),
        fixture.connect(b, pia),
      ]);
      for (const client of [owner, p1, p2]) expect((await client.join(sessionId)).status).toBe('SUCCESS');
      return { sessionId, owner, p1, p2 };
    },
  } as TwoReplicas;

  beforeAll(async () => {
    fixture.stack = await LiveStack.start(label);
    const redis = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `uis-test:${randomSuffix()}` };
    [fixture.a, fixture.b] = await Promise.all([fixture.stack.replica(redis), fixture.stack.replica(redis)]);
    fixture.researcher = fixture.stack.person('researcher', { name: 'Rhea Researcher' });
    fixture.pat = fixture.stack.person('participant', { name: 'Pat' });
    fixture.pia = fixture.stack.person('participant', { name: 'Pia' });
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await Promise.all([fixture.a?.close(), fixture.b?.close()]);
    await fixture.stack?.close();
  });

  return fixture;
}
