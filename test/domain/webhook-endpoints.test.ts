/**
 * Which events an endpoint receives: by its state when each event was created (fan-out may run
 * late), from its creation on; endpoints stored before states were kept go by their current state.
 */
import { expect } from 'chai';
import { newEndpointDoc, receivesEvent, withDeliveryState } from '../../domain/webhook-endpoints';

const created = newEndpointDoc({
  id: 'whk_0123456789abcdefghjk',
  organizationId: 'org_x',
  url: 'https://receiver.example/hook',
  description: null,
  enabledEvents: ['alert.created'],
  secret: 'whsec_x',
  metadata: {},
  at: new Date('2026-01-01T00:00:00.000Z'),
});
const disabled = withDeliveryState({ ...created, status: 'disabled' }, '2026-01-10T00:00:00.000Z');
const enabledAgain = withDeliveryState({ ...disabled, status: 'active' }, '2026-01-20T00:00:00.000Z');

describe('domain/webhook-endpoints: the events an endpoint receives', () => {
  it('by its state when the event was created: not before its creation, not while disabled, again once enabled', () => {
    expect(receivesEvent(enabledAgain, 'alert.created', '2025-12-31T23:59:59.999Z')).to.equal(false);
    expect(receivesEvent(enabledAgain, 'alert.created', '2026-01-05T00:00:00.000Z')).to.equal(true);
    expect(receivesEvent(enabledAgain, 'alert.created', '2026-01-15T00:00:00.000Z')).to.equal(false);
    expect(receivesEvent(enabledAgain, 'alert.created', '2026-01-25T00:00:00.000Z')).to.equal(true);
    expect(receivesEvent(enabledAgain, 'watch.paused', '2026-01-25T00:00:00.000Z')).to.equal(false);
    // Disabled now, active then: the event is its (its row waits until the endpoint is enabled).
    expect(receivesEvent(disabled, 'alert.created', '2026-01-05T00:00:00.000Z')).to.equal(true);
  });

  it('records a state only when status or subscriptions change', () => {
    expect(withDeliveryState({ ...enabledAgain, url: 'https://elsewhere.example/' }, '2026-02-01T00:00:00.000Z').delivery_states).to.have.length(3);
  });

  it('an endpoint stored before states were kept goes by its current state', () => {
    const { delivery_states: _kept, ...legacy } = disabled;
    expect(receivesEvent(legacy, 'alert.created', '2026-01-05T00:00:00.000Z')).to.equal(false);
    expect(receivesEvent({ ...legacy, status: 'active' }, 'alert.created', '2026-01-05T00:00:00.000Z')).to.equal(true);
  });
});
