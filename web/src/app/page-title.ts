import { createContext, useContext, useEffect } from 'react';

/** Sets the tab's name for the page shown (null: the route's own); provided by RootLayout. */
export const PageTitleContext = createContext<(title: string | null) => void>(() => undefined);

/**
 * Names the tab after what the page shows ("Linen week one · Sleepweave"), once it is
 * known, instead of the route's general name ("Community Thread"): several threads or
 * articles open in tabs are told apart, and a screen reader says which one this is.
 */
export function usePageTitle(title: string | undefined): void {
  const setTitle = useContext(PageTitleContext);
  useEffect(() => {
    if (!title) return;
    setTitle(title);
    return () => setTitle(null);
  }, [title, setTitle]);
}
