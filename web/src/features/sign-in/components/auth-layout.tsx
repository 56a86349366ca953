import { SCREEN_TEXTS } from '@uis/proto/browser';
import type { ReactNode } from 'react';
import { Icon } from '../../../components/ui/icon';
import './auth-layout.css';

/** The frame of the sign-in screens: the product's title over one centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-layout">
      <div className="auth-layout-card">
        <header className="auth-layout-brand">
          <Icon name="touch_app" className="auth-layout-logo" size={32} />
          <h1 className="auth-layout-title">{SCREEN_TEXTS.appTitle}</h1>
        </header>
        {children}
      </div>
    </main>
  );
}
