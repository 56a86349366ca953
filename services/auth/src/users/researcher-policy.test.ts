import { researcherPolicy } from './researcher-policy';

describe('researcherPolicy', () => {
  it('matches listed addresses and domains, case-insensitively', () => {
    const allowed = researcherPolicy(' ada@uni.edu , @lab.org ');
    expect(allowed('Ada@Uni.edu')).toBe(true);
    expect(allowed('bob@lab.org')).toBe(true);
    expect(allowed('bob@uni.edu')).toBe(false);
    expect(allowed('eve@notlab.org.evil')).toBe(false);
  });

  it('does not let a domain entry match a longer domain name', () => {
    const allowed = researcherPolicy('@lab.org');
    expect(allowed('mallory@evillab.org')).toBe(false);
  });

  it('allows everyone with *, and no one when empty', () => {
    expect(researcherPolicy('*')('anyone@example.com')).toBe(true);
    expect(researcherPolicy('')('anyone@example.com')).toBe(false);
  });
});
