import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import 'material-icons/iconfont/filled.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadAppConfig } from './config/app-config';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

// The deployment's settings first (one small same-origin file): the API host decides every call.
void loadAppConfig().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
