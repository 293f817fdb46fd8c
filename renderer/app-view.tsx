/**
 * The page's React part. main.tsx imports it dynamically (the page preloads it beside app.js): the first requests
 * leave before React and the components are parsed.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StoresContext, type Stores } from './app-context.js';
import { App } from './components/App.js';

export function renderApp(container: HTMLElement, stores: Stores, onReconnect: () => void): void {
  createRoot(container).render(
    <StrictMode>
      <StoresContext.Provider value={stores}>
        <App onReconnect={onReconnect} />
      </StoresContext.Provider>
    </StrictMode>,
  );
}
