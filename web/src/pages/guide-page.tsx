import { ResearcherGuide } from '../features/guide/components/researcher-guide';

/** `/guide`: the researcher's guide. */
export function GuidePage() {
  return <ResearcherGuide />;
}
