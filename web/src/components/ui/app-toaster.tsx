import { TOAST_MS } from '../../config/ui-constants';
import { Toaster } from 'sonner';

/** Where `notify`'s toasts show (spec section 8); app.tsx loads it after the first screen. */
export function AppToaster() {
  return <Toaster position="top-center" duration={TOAST_MS} richColors closeButton />;
}
