import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createAppDeps, restoreInterrupted } from './bootstrap';
import './styles.css';

const deps = createAppDeps();
void restoreInterrupted(deps);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App deps={deps} />
  </StrictMode>,
);
