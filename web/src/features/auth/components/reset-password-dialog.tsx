import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';

/**
 * "Forgot your password?" opens the Reset Password modal. Resetting by e-mail arrives
 * with a later issue, which replaces this content with the real form.
 */
export function ResetPasswordDialog() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="link">Forgot your password?</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>
          Resetting your password by e-mail is coming soon. We&apos;re preparing it with care, and it will be
          available here shortly.
        </DialogDescription>
        <DialogClose asChild>
          <Button variant="secondary" className="w-full sm:w-auto sm:justify-self-end">
            Close
          </Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
