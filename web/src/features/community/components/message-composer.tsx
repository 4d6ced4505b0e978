import { MESSAGE_BODY_MAX_LENGTH } from '@sleepweave/contracts';
import { Send } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError, serverMessage } from '../../../lib/api-client';
import { usePostMessage } from '../api/post-message';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';

/** Enter sends, Shift+Enter makes a new line; what she typed stays until it is sent. */
export function MessageComposer({ threadId }: { threadId: string }) {
  const [body, setBody] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const loggedOut = useLoggedOutRedirect();
  const tooLong = Array.from(body.trim()).length > MESSAGE_BODY_MAX_LENGTH;

  const send = usePostMessage({
    onSuccess: () => {
      setBody('');
      input.current?.focus();
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      // Her input (400), the message limit (429), a profile still on its way (503): the server's words.
      const detail = isApiRequestError(error) && [400, 429, 503].includes(error.status) ? serverMessage(error) : undefined;
      toast({ title: 'Error', description: detail ?? 'Failed to send message. Please try again.', variant: 'destructive' });
    },
  });

  const canSend = body.trim() !== '' && !tooLong && !send.isPending;

  const submit = () => {
    if (!canSend) return;
    send.mutate({ threadId, body });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form onSubmit={onSubmit} aria-label="Send a message" className="grid gap-2">
      <div className="flex items-end gap-3">
        <label htmlFor="message-body" className="sr-only">
          Message
        </label>
        <Textarea
          ref={input}
          id="message-body"
          name="body"
          rows={2}
          placeholder="Write a message..."
          value={body}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={tooLong || undefined}
          aria-describedby="message-hint"
          className="max-h-48 min-h-12 resize-none"
        />
        <Button type="submit" disabled={!canSend} pending={send.isPending} className="shrink-0">
          {send.isPending ? null : <Send aria-hidden="true" className="size-5" />}
          {send.isPending ? 'Sending...' : 'Send'}
        </Button>
      </div>
      <p
        id="message-hint"
        className={tooLong ? 'text-sm font-medium text-rose-700' : 'sr-only sm:not-sr-only sm:text-sm sm:text-night-500'}
      >
        {tooLong
          ? `Message must be at most ${MESSAGE_BODY_MAX_LENGTH.toLocaleString('en-US')} characters (now ${Array.from(body.trim()).length.toLocaleString('en-US')}).`
          : 'Enter sends, Shift+Enter starts a new line.'}
      </p>
    </form>
  );
}
