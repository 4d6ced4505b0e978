import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import { deciderSpec, fold } from './testing.ts';
import type { Decider, DomainEvent } from './types.ts';

/** A toy decider: a light switch that refuses to switch on twice. */
type SwitchedOn = DomainEvent<'SwitchedOn', { at: string }>;
type SwitchedOff = DomainEvent<'SwitchedOff', { at: string }>;
type SwitchEvent = SwitchedOn | SwitchedOff;
type SwitchCommand = { type: 'SwitchOn'; now: Date } | { type: 'SwitchOff'; now: Date };
type SwitchState = { on: boolean; switches: number };

class AlreadyOn extends Error {
  constructor() {
    super('the light is already on');
  }
}

const lightSwitch: Decider<SwitchCommand, SwitchState, SwitchEvent> = {
  initialState: () => ({ on: false, switches: 0 }),
  evolve: (state, event) => ({ on: event.type === 'SwitchedOn', switches: state.switches + 1 }),
  decide(command, state) {
    switch (command.type) {
      case 'SwitchOn':
        if (state.on) throw new AlreadyOn();
        return [{ type: 'SwitchedOn', data: { at: command.now.toISOString() } }];
      case 'SwitchOff':
        return state.on ? [{ type: 'SwitchedOff', data: { at: command.now.toISOString() } }] : [];
    }
  },
};

const now = new Date('2025-06-01T22:00:00.000Z');
const on: SwitchedOn = { type: 'SwitchedOn', data: { at: '2025-05-31T22:00:00.000Z' } };

describe('deciderSpec', () => {
  it('then: checks the decided events and returns the new state', () => {
    const state = deciderSpec(lightSwitch)
      .given([])
      .when({ type: 'SwitchOn', now })
      .then([{ type: 'SwitchedOn', data: { at: now.toISOString() } }]);
    expect(state).toEqual({ on: true, switches: 1 });
    deciderSpec(lightSwitch).when({ type: 'SwitchOff', now }).then([]);
    deciderSpec(lightSwitch)
      .given([on])
      .when({ type: 'SwitchOff', now })
      .then([{ type: 'SwitchedOff', data: { at: now.toISOString() } }]);
  });

  it('then: fails on other events', () => {
    expect(() => deciderSpec(lightSwitch).given([on]).when({ type: 'SwitchOff', now }).then([])).toThrow(AssertionError);
  });

  it('thenThrows: by error class, by predicate, or any error', () => {
    const spec = deciderSpec(lightSwitch).given([on]).when({ type: 'SwitchOn', now });
    expect(spec.thenThrows(AlreadyOn)).toBeInstanceOf(AlreadyOn);
    spec.thenThrows((e) => e instanceof Error && /already on/.test(e.message));
    spec.thenThrows(Error);
    spec.thenThrows();
  });

  it('thenThrows: fails when nothing or something else is thrown', () => {
    expect(() => deciderSpec(lightSwitch).when({ type: 'SwitchOn', now }).thenThrows(AlreadyOn)).toThrow(AssertionError);
    const refused = deciderSpec(lightSwitch).given([on]).when({ type: 'SwitchOn', now });
    expect(() => refused.thenThrows(TypeError)).toThrow(AssertionError);
    expect(() => refused.thenThrows(() => false)).toThrow(AssertionError);
  });

  it('fold replays history', () => {
    expect(fold(lightSwitch, [on, { type: 'SwitchedOff', data: { at: 'x' } }, on])).toEqual({ on: true, switches: 3 });
  });
});
