import { sessionRole } from './session-role';

const owner = { id: '11111111-1111-4111-8111-111111111111', email: 'owner@lab.test' };
const ada = { id: '22222222-2222-4222-8222-222222222222', email: 'ada@uni.test' };

describe('sessionRole', () => {
  it('makes the group owner the owner, whatever the scope says', () => {
    expect(sessionRole({ ownerId: owner.id, scope: [] }, owner)).toBe('owner');
    expect(sessionRole({ ownerId: owner.id, scope: null }, owner)).toBe('owner');
  });

  it('lets everyone in when the scope is Everyone', () => {
    expect(sessionRole({ ownerId: owner.id, scope: null }, ada)).toBe('participant');
  });

  // E-mails arrive lower-cased (the access token's claims, proto's email()); kit's tests show the token's.
  it('lets in a listed e-mail and no one else', () => {
    expect(sessionRole({ ownerId: owner.id, scope: ['ada@uni.test'] }, ada)).toBe('participant');
    expect(sessionRole({ ownerId: owner.id, scope: ['bo@uni.test'] }, ada)).toBe('none');
    expect(sessionRole({ ownerId: owner.id, scope: [] }, ada)).toBe('none');
  });

  it('does not take the owner’s e-mail for the owner: ownership is by user id', () => {
    const impostor = { id: ada.id, email: owner.email };
    expect(sessionRole({ ownerId: owner.id, scope: [] }, impostor)).toBe('none');
  });
});
