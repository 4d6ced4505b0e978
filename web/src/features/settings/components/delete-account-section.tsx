import { DeleteAccountRequest } from '@sleepweave/contracts';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
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
import { paths } from '../../../config/paths';
import { isApiRequestError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useDeleteAccount } from '../api/delete-account';
import { touchScreen } from '../../../lib/utils';

const consequences = [
  'Your profile, sign-in and every session on every device',
  'Your sleep study consent, sleep logs and exports',
  'Your journal entries and your messages in the community',
];

/** A clear warning, then her password in a dialog; afterwards she is signed out and sent to /auth. */
export function DeleteAccountSection() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { control, register, handleSubmit, reset, setError } = useZodForm<DeleteAccountRequest, DeleteAccountRequest>(
    DeleteAccountRequest,
    { defaultValues: { password: '' } },
  );

  const remove = useDeleteAccount({
    onSuccess: (response) => {
      setOpen(false);
      void navigate(paths.auth, { replace: true });
      toast({ title: 'Account deleted', description: response.message });
    },
    onError: (err) => {
      const message =
        isApiRequestError(err) && err.status === 403
          ? (serverMessage(err) ?? 'That password is not correct.')
          : isNetworkError(err)
            ? 'Network error. Please try again.'
            : (serverMessage(err) ?? 'Failed to delete your account. Please try again.');
      // focused: her screen reader reads the field with its message
      setError('password', { type: 'server', message }, { shouldFocus: true });
    },
  });

  const onOpenChange = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    reset({ password: '' });
  };

  return (
    <div className="grid gap-5">
      <div className="flex items-start gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-4 text-rose-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-2 text-base">
          <p className="font-semibold">Deleting your account is permanent and cannot be undone.</p>
          <p>Everything you have shared with Sleepweave is removed for good:</p>
          <ul className="list-disc space-y-1 pl-5">
            {consequences.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {/* said before she decides (docs/community.md): a name may be hers, "Noa's linen diary" */}
          <p>The names of threads you started stay for the others in them, no longer linked to you.</p>
        </div>
      </div>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogTrigger asChild>
          <Button variant="destructive" className="w-full justify-self-end sm:w-auto">
            Delete Account
          </Button>
        </DialogTrigger>
        <DialogContent
          // on a touch screen the dialog, not the password, takes the focus: the keyboard that
          // came up with it covered the warning and both buttons (Cancel too)
          onOpenAutoFocus={(event) => {
            if (!touchScreen()) return;
            event.preventDefault();
            (event.target as HTMLElement).focus();
          }}
        >
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>
            This permanently deletes your account and all your data. It cannot be undone. Enter your password to confirm.
          </DialogDescription>
          <form noValidate onSubmit={handleSubmit((data) => remove.mutate(data))} aria-label="Delete account" className="grid gap-5">
            <FormField control={control} name="password" id="delete-account-password" label="Password">
              {(props) => <Input {...props} type="password" autoComplete="current-password" required {...register('password')} />}
            </FormField>
            <DialogActions>
              <DialogClose asChild>
                <Button variant="outline" disabled={remove.isPending} className="whitespace-nowrap">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" variant="destructive" pending={remove.isPending} className="whitespace-nowrap">
                {remove.isPending ? 'Deleting...' : 'Delete My Account'}
              </Button>
            </DialogActions>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
