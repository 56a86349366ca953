import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes';
import { GUIDE_TEXTS } from '../../../i18n/en/guide';
import { researcherGuideHtml } from '../researcher-guide-html';
import '../guide.css';

/** The researcher's guide (docs/guide/README.md), from the account bar's help button. */
export function ResearcherGuide() {
  // The repository's own text, made at build time: nothing a user typed reaches this HTML.
  const html = useMemo(() => researcherGuideHtml(), []);
  return (
    <main className="guide">
      <Link className="button secondary guide-back" to={PATHS.dashboard}>
        {GUIDE_TEXTS.backToDashboard}
      </Link>
      <article className="guide-text" dangerouslySetInnerHTML={{ __html: html }} />
    </main>
  );
}
