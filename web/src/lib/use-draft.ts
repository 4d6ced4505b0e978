import { useEffect, useEffectEvent } from 'react';
import { useUser } from './auth';
import { dropDraft, keepDraft, sweepDrafts, takeDraft } from './drafts';

/**
 * A form's draft under `key`: `restore` gets it once her user is known on this screen, and
 * the function returned keeps the values given (call it before the signed-out redirect),
 * or with null removes them (they were saved).
 */
export function useDraft<T>(key: string, restore: (values: T) => void): (values: T | null) => void {
  const userId = useUser().data?.id;
  const onRestore = useEffectEvent(restore);
  useEffect(() => {
    if (!userId) return;
    sweepDrafts(userId);
    const values = takeDraft<T>(key, userId);
    if (values !== null) onRestore(values);
  }, [key, userId]);
  return (values: T | null) => {
    if (values === null) dropDraft(key);
    else if (userId) keepDraft(key, userId, values);
  };
}
