import { customElement } from 'lit/decorators.js';
import { chooseLocalEcho, LOCAL_ECHO_STORAGE_KEY, localEchoChosen } from '../core/local-echo-choice.js';
import { type DeviceSwitch, DeviceSwitchSetting } from './device-switch-setting.js';

/** "Show typing at once" (the terminal's local echo), for this device only. */
@customElement('pm-local-echo-setting')
export class LocalEchoSetting extends DeviceSwitchSetting {
  protected readonly choice: DeviceSwitch = {
    storageKey: LOCAL_ECHO_STORAGE_KEY,
    chosen: () => localEchoChosen(),
    choose: (on) => chooseLocalEcho(on),
    id: 'local-echo',
    heading: 'Terminal on this device',
    label: 'Show typing at once',
    detail:
      "What you type shows before the computer's echo comes back, and gives way to what it draws. Only once this line's echo has been seen, so a password prompt shows nothing.",
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-local-echo-setting': LocalEchoSetting;
  }
}
