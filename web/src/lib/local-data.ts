import { forgetDeviceChoices } from './device-choices';
import { dropDrafts } from './drafts';
import { dropEntryStates } from './use-entry-state';

/**
 * Everything the app keeps in this browser for her (docs/data-protection.md): her drafts and
 * screen states in this tab, her choices on this device. Signing out on purpose and deleting
 * her account drop it all; a session that ends by itself keeps the drafts to give back.
 */
export function dropLocalData(): void {
  dropDrafts();
  dropEntryStates();
  forgetDeviceChoices();
}
