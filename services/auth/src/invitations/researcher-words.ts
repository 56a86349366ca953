/** Line breaks, tabs and other control or direction-changing characters: one space each run. */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069\s]+/gu;
/** Double quotation marks, which would end our quotation early. */
const DOUBLE_QUOTES = /["“”„‟«»]/g;

/**
 * A researcher's own words (a session's title, their name) as one line that cannot close the
 * quotation marks the mail puts around it: what follows is visibly the platform's again.
 */
export const ownWords = (text: string): string =>
  text.replace(NOT_ONE_LINE, ' ').replace(DOUBLE_QUOTES, "'").trim();

/**
 * The name an invitation names its sender by: the researcher's own, quoted and labelled as theirs
 * (the mail's first words), so that a "name" such as "Your university's IT office" reads as a
 * researcher calling themselves that, not as the platform speaking.
 */
export const researcherNamed = (name: string): string => {
  const own = ownWords(name);
  return own ? `Researcher “${own}”` : 'A researcher';
};
