import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as configureZod } from 'zod';
import { App } from './app';
import './index.css';

// zod compiles parsers with `new Function` unless told not to; the CSP forbids eval.
configureZod({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The first render as a transition: React renders it in slices of a few milliseconds,
// yielding to the browser between them, instead of in one long task that blocks input
// (on a slow phone the app's first render took several hundred milliseconds at a stretch).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
