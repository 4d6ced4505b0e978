import { useEffect } from 'react';

/**
 * While `unsaved` holds, leaving the page (a reload, closing the tab, another site) asks
 * first: the browser's own question, as what she typed or saved would be lost with it.
 */
export function useLeavePrompt(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);
}
