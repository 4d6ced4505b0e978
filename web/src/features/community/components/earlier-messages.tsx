import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { loadEarlierMessages } from '../api/get-thread';

/** Above the messages when the thread has earlier ones than the 500 it opened with (`?before=`). */
export function EarlierMessages({ threadId }: { threadId: string }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const load = () => {
    setState('loading');
    loadEarlierMessages(queryClient, threadId).then(
      () => setState('idle'),
      () => setState('error'),
    );
  };
  return (
    <div className="mb-4 flex flex-col items-center gap-1">
      <Button variant="outline" onClick={load} pending={state === 'loading'}>
        {state === 'loading' ? 'Loading earlier messages...' : 'Load earlier messages'}
      </Button>
      {state === 'error' ? (
        <p role="alert" className="text-sm text-rose-700">
          Earlier messages could not be loaded. Please try again.
        </p>
      ) : null}
    </div>
  );
}
