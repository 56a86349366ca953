import { describe, expect, it } from 'vitest';
import { researcherGuideHtml } from './researcher-guide-html';

describe("the researcher's guide as the app shows it", () => {
  it('is docs/guide/README.md, its screenshots served by the build', () => {
    const html = researcherGuideHtml();
    expect(html).toContain('<h1>A researcher&#39;s guide');
    const images = [...html.matchAll(/<img src="([^"]+)" alt="([^"]*)"/g)];
    expect(images.length).toBeGreaterThan(5);
    for (const [, src] of images) expect(src).toMatch(/\.png$/);
  });

  it("keeps web links, and shows the repository's other documents as text (the app does not serve them)", () => {
    const html = researcherGuideHtml(
      'See [deployment](../deployment.md), [Prolific](https://www.prolific.com/) and ![gone](../screenshots/nope.png).',
    );
    expect(html).toContain(
      'See deployment, <a href="https://www.prolific.com/" rel="noreferrer">Prolific</a> and gone.',
    );
  });
});
