/**
 * The exports' download names, for records (Content-Disposition) and the web app alike: apart from
 * export-codebook.ts, so the browser bundles these few lines without the codebook's texts.
 */
import type { ExportTable } from './export-codebook';

/**
 * A file-name part from a title: lower-case ASCII letters and digits joined by single hyphens (accents
 * dropped), at most 60 characters; `fallback` when nothing is left.
 */
export function fileNameSlug(title: string, fallback = 'session'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** The download name of one table of one session (the record panel's Export): `<title-slug>-<table>.csv`. */
export const sessionExportFileName = (sessionTitle: string, name: ExportTable) =>
  `${fileNameSlug(sessionTitle)}-${name}.csv`;
