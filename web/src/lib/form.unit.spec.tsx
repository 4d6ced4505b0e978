// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FormField } from '../components/ui/form-field';
import { Input } from '../components/ui/input';
import { ApiRequestError } from './api-client';
import { setServerFieldError, useZodForm, zodFormResolver, type FormErrorMessages } from './form';

afterEach(cleanup);

const Pair = z
  .object({
    name: z.string().trim().min(1, 'Name is required'),
    code: z.string().regex(/^\d+$/, 'Digits only'),
  })
  .refine((v) => v.code !== '0', { message: 'Zero is not a code' });
type Pair = z.input<typeof Pair>;

const resolve = (values: Pair, words?: (values: Pair) => FormErrorMessages<Pair>) =>
  zodFormResolver(Pair, words)(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('zodFormResolver', () => {
  it("answers the schema's output when the values pass", async () => {
    expect(await resolve({ name: '  Maria ', code: '42' })).toEqual({ values: { name: 'Maria', code: '42' }, errors: {} });
  });

  it("gives each field the schema's first message, and a refine on the whole object to root", async () => {
    expect((await resolve({ name: '', code: 'x' })).errors).toMatchObject({
      name: { message: 'Name is required' },
      code: { message: 'Digits only' },
    });
    expect((await resolve({ name: 'Maria', code: '0' })).errors).toEqual({
      root: expect.objectContaining({ message: 'Zero is not a code' }),
    });
  });

  it("lets the form word a field's message its own way, or add one", async () => {
    const words = (values: Pair) => ({
      name: values.name === '' ? 'Tell us your name' : undefined,
      code: values.code === '7' ? 'Not 7' : '',
    });
    const refused = await resolve({ name: '', code: 'x' }, words);
    expect(refused.errors).toMatchObject({ name: { message: 'Tell us your name' }, code: { message: 'Digits only' } });
    expect((await resolve({ name: 'Maria', code: '7' }, words)).errors).toMatchObject({ code: { message: 'Not 7' } });
  });
});

function PairForm({ onValid }: { onValid: (values: z.output<typeof Pair>) => void }) {
  const { control, register, handleSubmit } = useZodForm<Pair, z.output<typeof Pair>>(Pair, { defaultValues: { name: '', code: '' } });
  return (
    <form noValidate aria-label="Pair" onSubmit={handleSubmit(onValid)}>
      <FormField control={control} name="name" id="pair-name" label="Name">
        {(props) => <Input {...props} {...register('name')} />}
      </FormField>
      <FormField control={control} name="code" id="pair-code" label="Code">
        {(props) => <Input {...props} {...register('code')} />}
      </FormField>
      <button type="submit">Save</button>
    </form>
  );
}

describe('useZodForm', () => {
  it('validates on submit, focuses the first field in error, and sends what the schema makes of the values', async () => {
    const onValid = vi.fn();
    render(<PairForm onValid={onValid} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Digits only')).toBeTruthy();
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(screen.getByText('Name is required').id);
    expect(document.activeElement).toBe(name);
    expect(onValid).not.toHaveBeenCalled();

    await user.type(name, ' Maria ');
    await user.type(screen.getByLabelText('Code'), '42');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]![0]).toEqual({ name: 'Maria', code: '42' });
  });

  it("clears a field's message as she changes it, and checks again only on the next submit", async () => {
    render(<PairForm onValid={() => {}} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Digits only')).toBeTruthy();

    await user.type(screen.getByLabelText('Code'), 'x');

    // Still not digits, but she is changing it: no message until she submits again.
    expect(screen.queryByText('Digits only')).toBeNull();
    expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBeNull();
    // The other field keeps its message.
    expect(screen.getByText('Name is required')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Digits only')).toBeTruthy();
  });
});

describe('setServerFieldError', () => {
  function FormWithServer({ error }: { error: unknown }) {
    const form = useZodForm<Pair, z.output<typeof Pair>>(Pair, { defaultValues: { name: '', code: '' } });
    const isField = (name: string): name is keyof Pair => name === 'name' || name === 'code';
    return (
      <form aria-label="Pair">
        <FormField control={form.control} name="code" id="server-code" label="Code">
          {(props) => <Input {...props} {...form.register('code')} />}
        </FormField>
        <button type="button" onClick={() => setServerFieldError(form, error, isField)}>
          Answer
        </button>
      </form>
    );
  }
  const answer = (status: number, message: string) =>
    new ApiRequestError(status, JSON.stringify({ error: 'validation', message }), { error: 'validation', message });

  it('shows a 400 that names a field on that field, and focuses it', async () => {
    render(<FormWithServer error={answer(400, 'code: Code must be between 1 and 9: or so')} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Answer' }));
    expect(await screen.findByText('Code must be between 1 and 9: or so')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Code'));
  });

  it.each([
    ['another status', answer(409, 'code: taken')],
    ['a field the form does not have', answer(400, 'date: You can log nights up to tomorrow')],
    ['a message without a field', answer(400, 'Something is wrong')],
    ['no answer at all', new TypeError('Failed to fetch')],
  ])('leaves the fields alone for %s', async (_, error) => {
    render(<FormWithServer error={error} />);
    await act(async () => screen.getByRole('button', { name: 'Answer' }).click());
    expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBeNull();
  });
});
