import { CreateThreadRequest, hasSomethingToSee, THREAD_NAME_MAX_LENGTH } from '@sleepweave/contracts';
import { Plus } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useDraft } from '../../../lib/use-draft';
import { useLeavePrompt } from '../../../lib/use-leave-prompt';
import { useCreateThread } from '../api/create-thread';

type Values = { name: string };

/** The New Thread dialog: closes and clears on success; on failure keeps what she typed. */
export function NewThreadDialog() {
  const [open, setOpen] = useState(false);
  const loggedOut = useLoggedOutRedirect();
  // The schema's message for a blank name is the spec's: 'Please enter a name for your thread.'
  const { control, register, handleSubmit, reset, getValues, clearErrors } = useZodForm<Values, CreateThreadRequest>(CreateThreadRequest, {
    defaultValues: { name: '' },
  });
  // The name she was creating a thread with when her session ended: the dialog opens with
  // it again once she is signed in and back on Community.
  const keepDraft = useDraft<Values>('new-thread', (values) => {
    reset(values);
    setOpen(true);
  });
  // a name typed in the open dialog, not yet made a thread: a reload or a closed tab asks first
  const typedName = useWatch({ control, name: 'name' });
  useLeavePrompt(open && hasSomethingToSee(typedName));

  // A failed create said in the dialog too: while it is open, the toasts outside it are
  // hidden from screen readers and out of the keyboard's reach.
  const [failure, setFailure] = useState<string | null>(null);
  /** The toast of the last failed or refused create: closed once a thread is made or the dialog closes (it no longer holds), as the composer's. */
  const failureToast = useRef<{ dismiss: () => void } | null>(null);
  const create = useCreateThread({
    onSuccess: () => {
      setOpen(false);
      setFailure(null);
      failureToast.current?.dismiss();
      failureToast.current = null;
      reset({ name: '' });
    },
    onError: (err) => {
      if (isApiRequestError(err) && err.status === 401) {
        keepDraft(getValues());
        return loggedOut();
      }
      // The thread limit (429) and a profile still on its way (503) say what to do in the server's words.
      const detail = isApiRequestError(err) && err.status === 429 ? serverMessage(err) : undefined;
      const description = detail ?? failureMessage(err, 'Failed to create thread. Please try again.');
      setFailure(description);
      failureToast.current = toast({ title: 'Error', description, variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    setFailure(null);
    void handleSubmit(
      (data) => create.mutate(data),
      () => {
        // docs/product.md §5: a blank name toasts; the message is also next to the field, because while
        // the dialog is open the toasts outside it are hidden from screen readers.
        // (a toast of an earlier attempt no longer holds: another error is said by the field)
        failureToast.current?.dismiss();
        failureToast.current = null;
        if (!hasSomethingToSee(getValues('name'))) {
          failureToast.current = toast({
            title: 'Thread Name Required',
            description: 'Please enter a name for your thread.',
            variant: 'destructive',
          });
        }
      },
    )(event);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (create.isPending) return;
        // closed (Cancel, Escape): what she typed stays for next time, an error of this attempt does not
        if (!next) {
          clearErrors();
          setFailure(null);
          failureToast.current?.dismiss();
          failureToast.current = null;
        }
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" className="size-5" />
          New Thread
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>New Thread</DialogTitle>
        <DialogDescription>Start a conversation the whole community can join.</DialogDescription>
        <form noValidate onSubmit={onSubmit} aria-label="New thread" className="grid gap-5">
          <FormField
            control={control}
            name="name"
            id="thread-name"
            label="Thread Name"
            hint={`Up to ${THREAD_NAME_MAX_LENGTH} characters.`}
          >
            {(props) => <Input {...props} autoComplete="off" placeholder="e.g. Linen and night sweats" required {...register('name')} />}
          </FormField>
          {failure ? (
            <p role="alert" className="rounded-xl bg-rose-50 p-3 text-base text-rose-900">
              {failure}
            </p>
          ) : null}
          <DialogActions>
            <DialogClose asChild>
              <Button variant="outline" disabled={create.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" pending={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Thread'}
            </Button>
          </DialogActions>
        </form>
      </DialogContent>
    </Dialog>
  );
}
