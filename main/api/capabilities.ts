import type { Capabilities } from '../../shared/api/schema.js';
import type { InspectorSession } from './session.js';

/** What the session's platform and providers can do, as the `status` method reports it. */
export function sessionCapabilities(session: InspectorSession): Capabilities {
  const platform = session.runtime.platform;
  return {
    pick: platform?.pointer !== undefined,
    highlight: platform?.highlight !== undefined || session.highlightFallback !== undefined,
    followFocus: session.runtime.providers.some(
      (provider) => provider.descriptor.eventCapabilities === 'StructureWithProperties',
    ),
    locators: true,
    stop: session.hostStop !== undefined,
    screen: platform?.screenshot !== undefined,
    interact: platform?.pointer !== undefined && platform.keyboard !== undefined,
    record: platform?.inputRecorder !== undefined,
  };
}
