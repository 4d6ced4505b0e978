import assert from 'node:assert/strict';
import type { Decider, DomainEvent } from './types.ts';

/** An Error class (instanceof check) or a predicate on the thrown value. */
export type ThrownMatcher = (abstract new (...args: never[]) => Error) | ((error: unknown) => boolean);

export interface DeciderThen<S, E> {
  /** The command decides exactly these events. Returns the state after them. */
  then(expected: E[]): S;
  /** The command is refused. Returns the thrown error. */
  thenThrows(matcher?: ThrownMatcher): unknown;
}

export interface DeciderWhen<C, S, E> {
  when(command: C): DeciderThen<S, E>;
}

/** Folds events over the decider's initial state. */
export function fold<C, S, E extends DomainEvent>(decider: Decider<C, S, E>, events: E[]): S {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}

function isErrorClass(matcher: ThrownMatcher): matcher is abstract new (...args: never[]) => Error {
  return matcher === Error || matcher.prototype instanceof Error;
}

/**
 * Given/when/then for deciders, with node:assert (works in any test runner):
 *
 *   deciderSpec(counter).given([{ type: 'Incremented', data: { by: 1 } }])
 *     .when({ type: 'Increment', data: { by: 2 } })
 *     .then([{ type: 'Incremented', data: { by: 2 } }]);
 *
 *   deciderSpec(counter).given([]).when(tooBig).thenThrows(LimitExceeded);
 */
export function deciderSpec<C, S, E extends DomainEvent>(decider: Decider<C, S, E>) {
  return {
    given(history: E[]): DeciderWhen<C, S, E> {
      return {
        when(command: C): DeciderThen<S, E> {
          const state = fold(decider, history);
          return {
            then(expected) {
              const actual = decider.decide(command, state);
              assert.deepStrictEqual(actual, expected);
              return actual.reduce((s, e) => decider.evolve(s, e), state);
            },
            thenThrows(matcher) {
              let thrown: unknown;
              let threw = false;
              try {
                decider.decide(command, state);
              } catch (err) {
                threw = true;
                thrown = err;
              }
              assert.ok(threw, 'expected the command to be refused, but it decided events');
              if (matcher) {
                const ok = isErrorClass(matcher) ? thrown instanceof matcher : matcher(thrown);
                assert.ok(ok, `the command was refused with an unexpected error: ${String(thrown)}`);
              }
              return thrown;
            },
          };
        },
      };
    },
    /** Same as given([]). */
    when(command: C): DeciderThen<S, E> {
      return this.given([]).when(command);
    },
  };
}
