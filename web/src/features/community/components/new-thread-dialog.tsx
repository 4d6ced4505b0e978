import { CreateThreadRequest, THREAD_NAME_MAX_LENGTH } from '@sleepweave/contracts';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useCreateThread } from '../api/create-thread';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';

/** The New Thread dialog: closes and clears on success; on failure keeps what she typed. */
export function NewThreadDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const loggedOut = useLoggedOutRedirect();

  const create = useCreateThread({
    onSuccess: () => {
      setOpen(false);
      setName('');
      setError(undefined);
    },
    onError: (err) => {
      if (isApiRequestError(err) && err.status === 401) return loggedOut();
      // The thread limit (429) and a profile still on its way (503) say what to do in the server's words.
      const detail = isApiRequestError(err) && [429, 503].includes(err.status) ? serverMessage(err) : undefined;
      toast({ title: 'Error', description: detail ?? 'Failed to create thread. Please try again.', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    if (name.trim() === '') {
      toast({ title: 'Thread Name Required', description: 'Please enter a name for your thread.', variant: 'destructive' });
      // Also next to the field: while the dialog is open, the toasts outside it are hidden from screen readers.
      setError('Please enter a name for your thread.');
      return;
    }
    const parsed = CreateThreadRequest.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    create.mutate(parsed.data);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (create.isPending) return;
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
          <Field id="thread-name" label="Thread Name" error={error} hint={`Up to ${THREAD_NAME_MAX_LENGTH} characters.`}>
            {(control) => (
              <Input
                {...control}
                name="name"
                autoComplete="off"
                placeholder="e.g. Linen and night sweats"
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(undefined);
                }}
              />
            )}
          </Field>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={create.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" pending={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Thread'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
