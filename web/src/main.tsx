import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';

const mount = document.getElementById('root');
if (!mount) throw new Error('missing mount point: no element with id "root"');
createRoot(mount).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
