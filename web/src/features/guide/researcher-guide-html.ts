import { Marked, type Tokens } from 'marked';
import guide from '../../../../docs/guide/README.md?raw';

/** The screenshots the guide shows, by file name: the build copies each to /static/ and names its URL. */
const SCREENSHOTS: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../../../docs/screenshots/*.png', {
      eager: true,
      query: '?url',
      import: 'default',
    }),
  ).map(([file, url]) => [file.slice(file.lastIndexOf('/') + 1), url]),
);

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * docs/guide/README.md as HTML for the app's guide page: one text, read in the repository and in
 * the app. Its screenshots point at the build's copies; links to the repository's other documents
 * (relative .md paths, which the app does not serve) become plain text, web links open as links.
 */
export function researcherGuideHtml(markdown: string = guide): string {
  const marked = new Marked({
    renderer: {
      image({ href, text }: Tokens.Image) {
        const url = SCREENSHOTS[href.slice(href.lastIndexOf('/') + 1)];
        // eslint-disable-next-line i18next/no-literal-string -- markup, not a text
        return url ? `<img src="${escape(url)}" alt="${escape(text)}" loading="lazy" />` : escape(text);
      },
      link({ href, tokens }: Tokens.Link) {
        const text = this.parser.parseInline(tokens);
        // eslint-disable-next-line i18next/no-literal-string -- markup, not a text
        return /^https?:\/\//.test(href) ? `<a href="${escape(href)}" rel="noreferrer">${text}</a>` : text;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
