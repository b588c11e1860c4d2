import QRCode from 'qrcode';
import type { PairingResponse } from '../../protocol/api.js';
import { visibleText } from '../../protocol/safe-text.js';
import { commandName } from '../config/command-name.js';

/**
 * A pairing as the terminal shows it: the QR code (half-block characters, narrow enough
 * for an 80-column terminal), the URL, and the short code for an installed PWA. The QR
 * code's own colour sequences are the only escapes printed: the URL and code came over
 * the network and are shown escaped.
 */
export async function pairingText(pairing: PairingResponse): Promise<string> {
  const qr = await QRCode.toString(pairing.url, { type: 'terminal', small: true, errorCorrectionLevel: 'M' });
  const minutes = Math.max(1, Math.round((Date.parse(pairing.expiresAt) - Date.now()) / 60_000));
  return (
    `\nScan to pair a phone, or open the link (works once, for ${minutes} minutes):\n\n${qr}\n` +
    `  ${visibleText(pairing.url)}\n\n` +
    `In an installed app, enter the code: ${visibleText(pairing.code)}\n` +
    `Another device later: ${commandName()} pair\n\n`
  );
}
