import { ownWords, researcherNamed } from './researcher-words';

describe("a researcher's words in an invitation", () => {
  it('are one line that cannot close the quotation around them', () => {
    expect(ownWords('Study “A”\n\nYour account is locked: https://evil.test')).toBe(
      "Study 'A' Your account is locked: https://evil.test",
    );
    expect(ownWords(' Pattern\u202e <viewing> "x" ')).toBe("Pattern <viewing> 'x'");
  });

  it('name the researcher as quoted and theirs', () => {
    expect(researcherNamed('Rhea Researcher')).toBe('Researcher “Rhea Researcher”');
    expect(researcherNamed(' \n ')).toBe('A researcher');
  });
});
