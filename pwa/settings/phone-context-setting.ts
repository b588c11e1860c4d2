import { customElement } from 'lit/decorators.js';
import { choosePhoneContext, PHONE_CONTEXT_STORAGE_KEY, phoneContextChosen } from '../core/phone-context.js';
import { type DeviceSwitch, DeviceSwitchSetting } from './device-switch-setting.js';

/** "Tell Claude when I write from my phone", for this device only. */
@customElement('pm-phone-context-setting')
export class PhoneContextSetting extends DeviceSwitchSetting {
  protected readonly choice: DeviceSwitch = {
    storageKey: PHONE_CONTEXT_STORAGE_KEY,
    chosen: () => phoneContextChosen(),
    choose: (on) => choosePhoneContext(on),
    id: 'phone-context',
    heading: 'Claude on this device',
    label: 'Tell Claude when I write from my phone',
    detail: 'A prompt sent from a phone-size screen asks Claude for short answers, no wide tables and small code blocks. Only that prompt.',
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-phone-context-setting': PhoneContextSetting;
  }
}
