import { UNDO_MS } from '../../../components/ui/undoable-toast';
import { DeferredDeletes } from './deferred-deletes';

/**
 * The record panel's held message deletions: one for the page, so a deletion outlives its row (a
 * tab switched, the editor left) and its Undo still works until the time is up.
 */
export const messageDeletes = new DeferredDeletes(UNDO_MS);

// Leaving the page sends what is held (best effort: a call cut off by the unload leaves the message).
window.addEventListener('pagehide', () => messageDeletes.sendAll());
