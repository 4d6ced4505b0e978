import { characterCount, CreateMessageRequest, hasSomethingToSee, MESSAGE_BODY_MAX_LENGTH } from '@sleepweave/contracts';
import { Send } from 'lucide-react';
import { useRef, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useDraft } from '../../../lib/use-draft';
import { useLeavePrompt } from '../../../lib/use-leave-prompt';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { usePostMessage } from '../api/post-message';

type Values = { threadId: string; body: string };

/**
 * Enter sends, Shift+Enter makes a new line. The box empties as a message goes, so she can
 * write the next one meanwhile (counted on its own); if sending fails, the message comes
 * back into the box, ahead of anything she wrote since: nothing she typed is lost.
 */
export function MessageComposer({ threadId }: { threadId: string }) {
  const loggedOut = useLoggedOutRedirect();
  const { control, register, handleSubmit, reset, setFocus, getValues } = useZodForm<Values, CreateMessageRequest>(CreateMessageRequest, {
    defaultValues: { threadId, body: '' },
    shouldFocusError: false,
  });
  // What she wrote when her session ended comes back once she is signed in again.
  /** The box holds a message given back (its send failed): its key is kept while it is there. */
  const givenBack = useRef(false);
  const keepDraft = useDraft<string>(`message:${threadId}`, (draft) => {
    reset({ threadId, body: draft });
    givenBack.current = true;
  });
  const body = useWatch({ control, name: 'body' });
  const length = characterCount(body);
  const tooLong = length > MESSAGE_BODY_MAX_LENGTH;
  // a reload or a closed tab would lose what she wrote and has not sent
  useLeavePrompt(hasSomethingToSee(body));

  /** The box's text as it was sent (put back if sending fails). */
  const sent = useRef('');
  /** The error of the last failed send: closed once a message goes (it no longer holds). */
  const failure = useRef<{ dismiss: () => void } | null>(null);
  const send = usePostMessage({
    onSuccess: () => {
      keepDraft(null);
      failure.current?.dismiss();
      failure.current = null;
      setFocus('body');
    },
    onError: (error) => {
      const since = getValues('body');
      const back = since.trim() === '' ? sent.current : `${sent.current}\n${since}`;
      reset({ threadId, body: back });
      givenBack.current = true;
      // Kept as a draft whatever the failure: she may have left the thread while it was on
      // its way, and finds it in the box again when she comes back.
      keepDraft(back);
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      // Her input (400), the message limit (429), a profile still on its way (503): the server's words.
      const detail = isApiRequestError(error) && [400, 429].includes(error.status) ? serverMessage(error) : undefined;
      failure.current = toast({
        title: 'Error',
        description: detail ?? failureMessage(error, 'Failed to send message. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  /** She cleared the message given back: its key goes (the same words later are a new message). */
  const clearedGivenBack = (text: string) => {
    if (!givenBack.current || hasSomethingToSee(text)) return;
    givenBack.current = false;
    send.forgetKey();
  };

  const bodyField = register('body');
  const canSend = hasSomethingToSee(body) && !tooLong && !send.isPending;

  const submit = () => {
    if (!canSend) return;
    void handleSubmit(
      (data) => {
        sent.current = getValues('body');
        givenBack.current = false; // sent: the box no longer holds it (its key stays with this send)
        reset({ threadId, body: '' });
        send.mutate(data);
      },
      // What the server would refuse (its own schema), said as it would say it.
      (errors) =>
        toast({ title: 'Error', description: errors.body?.message ?? 'Failed to send message. Please try again.', variant: 'destructive' }),
    )();
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
          id="message-body"
          rows={2}
          placeholder="Write a message..."
          // a phone keyboard's Enter key says what it does here
          enterKeyHint="send"
          onKeyDown={onKeyDown}
          aria-invalid={tooLong || undefined}
          aria-describedby="message-hint"
          className="max-h-48 min-h-12 resize-none"
          {...bodyField}
          onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
            void bodyField.onChange(event);
            clearedGivenBack(event.target.value);
          }}
        />
        {/* while one is on its way the button is pending (keeps the focus), not disabled */}
        <Button type="submit" disabled={!canSend && !send.isPending} pending={send.isPending} className="shrink-0">
          {send.isPending ? null : <Send aria-hidden="true" className="size-5" />}
          {send.isPending ? 'Sending...' : 'Send'}
        </Button>
      </div>
      <p
        id="message-hint"
        className={tooLong ? 'text-sm font-medium text-rose-700' : 'sr-only sm:not-sr-only sm:text-sm sm:text-night-500 short:sr-only'}
      >
        {tooLong
          ? `Message must be at most ${MESSAGE_BODY_MAX_LENGTH.toLocaleString('en-US')} characters (now ${length.toLocaleString('en-US')}).`
          : 'Enter sends, Shift+Enter starts a new line.'}
      </p>
    </form>
  );
}
