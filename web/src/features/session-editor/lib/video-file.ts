import { UPLOAD_ACCEPT } from '@uis/proto/browser';

/**
 * Spec section 5: the source upload accepts .mp4 only. The browser checks the name before any byte
 * is sent (the file dialog's `accept` is only a hint); the server then checks the content.
 */
export const isMp4FileName = (name: string): boolean => name.trim().toLowerCase().endsWith(UPLOAD_ACCEPT);
