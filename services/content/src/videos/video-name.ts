import { VIDEO_NAME_MAX_CHARS } from '@uis/proto';

const EXTENSION = '.mp4';
const STEM_MAX_CHARS = Math.min(100, VIDEO_NAME_MAX_CHARS - EXTENSION.length);

/**
 * The name a video is stored and served under, from the name the browser sent: the last path segment
 * only, accents folded, anything but letters, digits, dot, underscore and hyphen turned into `_`, no
 * leading dots (hidden files, `..`), at most 100 characters before `.mp4`, and always ending in `.mp4`
 * (the content was checked to be MP4). It becomes the last segment of the asset URL and is shown
 * in the editor, so nothing in it may need escaping or hide a path.
 */
export function sanitizeVideoName(original: string | undefined): string {
  const lastSegment = (original ?? '').split(/[\\/]/).pop() ?? '';
  const safe = lastSegment
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_{2,}/g, '_');
  const withoutExtension = safe.toLowerCase().endsWith(EXTENSION) ? safe.slice(0, -EXTENSION.length) : safe;
  const stem = withoutExtension
    .replace(/^[._-]+/, '')
    .slice(0, STEM_MAX_CHARS)
    .replace(/[._-]+$/, '');
  return `${stem || 'video'}${EXTENSION}`;
}
