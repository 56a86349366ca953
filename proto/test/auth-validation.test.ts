import type { z } from 'zod';
import { routes } from '../src/routes';
import { VALIDATION_TEXTS } from '../src/fields';

/** The messages of a failed parse, by dotted path ('' for the root). */
const issuesOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('spec section 5 validation texts', () => {
  const magicLogin = routes.magicLogin.request;
  const setNewUser = routes.setNewUser.request;

  it('refuses an empty login e-mail with the exact spec text', () => {
    expect(issuesOf(magicLogin, { destination: '' })).toEqual({
      destination: 'Please provide your email to enter.',
    });
    expect(issuesOf(magicLogin, { destination: '   ' })).toEqual({
      destination: 'Please provide your email to enter.',
    });
    expect(issuesOf(magicLogin, {})).toEqual({ destination: 'Please provide your email to enter.' });
  });

  it('normalises a login e-mail and refuses one that is not an address', () => {
    expect(magicLogin.parse({ destination: '  Ada@Example.COM ' })).toEqual({
      destination: 'ada@example.com',
    });
    expect(issuesOf(magicLogin, { destination: 'ada' })).toEqual({
      destination: 'is not a valid e-mail address',
    });
  });

  it('gives the signup texts for an empty e-mail and an empty name', () => {
    expect(issuesOf(setNewUser, { email: '', name: '' })).toEqual({
      email: 'Please provide your email.',
      name: 'Please provide your name.',
    });
    expect(issuesOf(setNewUser, { email: 'a@b.co' })).toEqual({ name: 'Please provide your name.' });
  });

  it('defaults a signup to a participant', () => {
    expect(setNewUser.parse({ email: 'a@b.co', name: 'Ada' })).toMatchObject({ type: 'participant' });
  });

  it("uses 'This field must not be empty' for other empty fields", () => {
    expect(VALIDATION_TEXTS.empty).toBe('This field must not be empty');
    expect(
      issuesOf(routes.editGroup.request, { groupId: '0b8f7a52-4a1e-4f4e-9d53-2f6a3a1c9e10', title: ' ' }),
    ).toEqual({ title: 'This field must not be empty' });
    expect(issuesOf(routes.editMessage.request, {})).toEqual({
      messageId: 'This field must not be empty',
      message: 'This field must not be empty',
    });
  });
});
