import { EVERYONE, type RequestOf, type UserType } from '@uis/proto';
import type { AuthUser } from '../auth/access-token';
import { apiClient, type ApiClient } from './api-client';
import { testPeople, testUser, type TestPerson } from './people';
import type { Http } from './send-input';

/** The people every test plays. Names and e-mails are distinct so a leak is easy to spot. */
export const CAST = {
  owner: { type: 'researcher', name: 'Owner Olga', email: 'olga@lab.test' },
  participant: { type: 'participant', name: 'Pat Participant', email: 'pat@uni.test' },
  outsider: { type: 'participant', name: 'Otto Outsider', email: 'otto@uni.test' },
  otherResearcher: { type: 'researcher', name: 'Rita Rival', email: 'rita@lab.test' },
} as const satisfies Record<string, Pick<AuthUser, 'type' | 'name' | 'email'>>;
export type CastName = keyof typeof CAST;
/** Whom a test calls as: one of the cast, or nobody (no token). */
export type Caller = CastName | 'anonymous';

/** Nobody signed in: no user, no token, no authorization header. */
export interface Anonymous {
  user: null;
  token: null;
  headers: Record<string, never>;
}
export const ANONYMOUS: Anonymous = Object.freeze({ user: null, token: null, headers: {} });

/** A session's scope: these people (or e-mails), or everyone (EVERYONE or null). */
export type Scope = readonly (string | TestPerson)[] | typeof EVERYONE | null;

export interface SessionOptions {
  /** Whose session (default the owner). */
  owner?: CastName | TestPerson;
  /** Its group (default one group of the owner's, made once). */
  groupId?: string;
  /** Default: the cast's participant alone. */
  scope?: Scope;
  type?: RequestOf<'editSessionInfo'>['type'];
  /**
   * Opened as the editor opens it, so participants may write before the researcher's live page is
   * open (default: most tests are about a session in progress); false leaves it not started.
   */
  live?: boolean;
}

export interface WorldOptions {
  /** The JWT_SECRET of the services under test: the cast's tokens are signed with it. */
  jwtSecret: string;
  /** Where studies' routes are answered (studies itself or a stack in front of it), when the harness has studies. */
  studies?: () => Http;
}

/**
 * What every service's harness offers the same way: the cast (`as('owner')`), new people
 * (`person('researcher', { name })`), and groups and sessions made through studies' routes by name.
 */
export interface TestWorld {
  /** The cast, signed in: user, token, headers. */
  people: Record<CastName, TestPerson>;
  /** The cast's users (what a token of theirs describes). */
  users: Record<CastName, AuthUser>;
  /** One of the cast, or the given person, or nobody (`'anonymous'`). */
  as(caller: CastName | TestPerson): TestPerson;
  as(caller: Caller | TestPerson): TestPerson | Anonymous;
  /** Someone new, signed in (a new id, login and e-mail, unless given). */
  person(type?: UserType, overrides?: Partial<AuthUser>): TestPerson;
  /** A token for someone who exists in the test (another login of theirs, or one expiring soon). */
  signIn(user: AuthUser, ttlSeconds?: number): TestPerson;
  /** A new group of `owner`'s (default the owner). Needs studies. */
  group(owner?: CastName | TestPerson, input?: RequestOf<'createGroup'>): Promise<string>;
  /** A new session, its scope and type set as the session editor sets them. Needs studies. */
  session(options?: SessionOptions): Promise<string>;
  /** Edits a session made by `session()` as its owner does. Needs studies. */
  editSession(sessionId: string, edit: { type?: SessionOptions['type']; scope?: Scope }): Promise<void>;
  /** Studies' routes by name (kit's typed client). Needs studies. */
  studiesApi: ApiClient;
}

/** The scope as studies takes it: e-mails, or EVERYONE. */
export const scopeOf = (scope: Scope): string[] | typeof EVERYONE =>
  scope === null || scope === EVERYONE
    ? EVERYONE
    : scope.map((who) => (typeof who === 'string' ? who : who.user.email));

/** A world for a harness: its cast signed with the services' secret, and studies where it has one. */
export function testWorld({ jwtSecret, studies }: WorldOptions): TestWorld {
  const signer = testPeople(jwtSecret);
  const people = Object.fromEntries(
    Object.entries(CAST).map(([name, who]) => [name, signer.asPerson(testUser(who.type, who))]),
  ) as Record<CastName, TestPerson>;
  const users = Object.fromEntries(
    Object.entries(people).map(([name, person]) => [name, person.user]),
  ) as Record<CastName, AuthUser>;

  function as(caller: CastName | TestPerson): TestPerson;
  function as(caller: Caller | TestPerson): TestPerson | Anonymous;
  function as(caller: Caller | TestPerson): TestPerson | Anonymous {
    if (caller === 'anonymous') return ANONYMOUS;
    return typeof caller === 'string' ? people[caller] : caller;
  }

  const studiesApi = apiClient(
    studies ??
      (() => {
        throw new Error('this harness has no studies: its world makes no groups or sessions');
      }),
  );
  const defaultGroups = new Map<string, Promise<string>>();
  const sessionOwners = new Map<string, TestPerson>();

  const group = async (owner: CastName | TestPerson = 'owner', input: RequestOf<'createGroup'> = {}) =>
    (await studiesApi.ok('createGroup', input, as(owner))).group.group_id;

  const editSession: TestWorld['editSession'] = async (sessionId, { type, scope }) => {
    const input: RequestOf<'editSessionInfo'> = { sessionId };
    if (type !== undefined) input.type = type;
    if (scope !== undefined) input.scope = scopeOf(scope);
    await studiesApi.ok('editSessionInfo', input, sessionOwners.get(sessionId) ?? people.owner);
  };

  return {
    people,
    users,
    as,
    person: (type, overrides) => signer.person(type, overrides),
    signIn: (user, ttlSeconds) => signer.asPerson(user, ttlSeconds),
    group,
    async session({
      owner = 'owner',
      groupId,
      scope = [people.participant.user.email],
      type,
      live = true,
    } = {}) {
      const who = as(owner);
      let inGroup = groupId;
      if (!inGroup) {
        if (!defaultGroups.has(who.user.id)) defaultGroups.set(who.user.id, group(who));
        inGroup = await defaultGroups.get(who.user.id)!;
      }
      const created = await studiesApi.ok('createSession', { groupId: inGroup }, who);
      const sessionId = created.session.session_id;
      sessionOwners.set(sessionId, who);
      if (type !== undefined || scope !== undefined) await editSession(sessionId, { type, scope });
      if (live) await studiesApi.ok('editSessionInfo', { sessionId, state: 'live' }, who);
      return sessionId;
    },
    editSession,
    studiesApi,
  };
}
