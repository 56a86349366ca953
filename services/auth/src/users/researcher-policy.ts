/**
 * RESEARCHER_EMAILS: a comma-separated list of addresses (`ada@uni.edu`), domains (`@uni.edu`)
 * or `*` (anyone; the embedded default). Empty: no one may sign up as a researcher by themselves
 * (an administrator promotes with `npm run admin -- promote <email>`).
 */
export function researcherPolicy(setting: string): (email: string) => boolean {
  const entries = setting
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.includes('*')) return () => true;
  const addresses = new Set(entries.filter((entry) => !entry.startsWith('@')));
  const domains = entries.filter((entry) => entry.startsWith('@'));
  return (email) => {
    const normalized = email.trim().toLowerCase();
    return addresses.has(normalized) || domains.some((domain) => normalized.endsWith(domain));
  };
}
