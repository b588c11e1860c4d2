import QRCode from 'qrcode';
import type { PairingResponse } from '../../protocol/api.js';
import { durationText } from '../../protocol/duration-text.js';
import { visibleText } from '../../protocol/safe-text.js';
import { advisedCommand } from '../config/command-name.js';

/**
 * How the QR code is drawn: `color` with the terminal colour escapes that make it scannable on
 * any background; `plain` in block characters alone (light modules as blocks, for the usual
 * light-on-dark terminal, as `qrencode -t UTF8` draws them); `none` leaves it out.
 */
export type QrStyle = 'color' | 'plain' | 'none';

/**
 * Escapes only for a terminal, and none when NO_COLOR is set (no-color.org: any value but the
 * empty string). Not a terminal is a log file or a pipe: no QR there, only the link and code,
 * since the secret in it expires minutes after it is written and logs are read later.
 */
export function qrStyleFor(out: { isTTY?: boolean }, env: NodeJS.ProcessEnv): QrStyle {
  if (out.isTTY !== true) return 'none';
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '' ? 'plain' : 'color';
}

/** A pairing link that only a browser on this machine can open. */
export function isLoopbackLink(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Said beside a link only this machine can open: a phone would scan it and get nowhere. */
export const LOOPBACK_LINK_NOTE =
  'This link opens on this machine only. For a phone, start the agent with --tailscale, or --public-url <your HTTPS proxy>, or --host and your own --tls-cert/--tls-key.';

async function qrCode(url: string, style: QrStyle): Promise<string> {
  if (style === 'none') return '';
  if (style === 'color') return `${await QRCode.toString(url, { type: 'terminal', small: true, errorCorrectionLevel: 'M' })}\n`;
  // The utf8 renderer draws light modules as blocks when told dark is white.
  const plain = await QRCode.toString(url, { type: 'utf8', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#ffffff', light: '#000000' } });
  return `${plain}\n`;
}

export interface PairingTextOptions {
  /** The data dir of the agent that made the pairing: `pair` for it is advised. */
  dataDir: string;
  qr: QrStyle;
}

/**
 * A pairing as the terminal shows it: the QR code (half-block characters, narrow enough for
 * an 80-column terminal), the URL, and the short code for an installed PWA. A link only this
 * machine can open gets no QR code, and a line on how a phone gets one. The QR code's own
 * colour sequences are the only escapes printed: the URL and code came over the network and
 * are shown escaped.
 */
export async function pairingText(pairing: PairingResponse, options: PairingTextOptions): Promise<string> {
  // The agent's own limit as it was set; an agent from before it said so leaves what is left of it.
  const seconds = typeof pairing.validForSeconds === 'number' ? pairing.validForSeconds : Math.floor((Date.parse(pairing.expiresAt) - Date.now()) / 1000);
  const lasts = `works once, for ${durationText(seconds)}`;
  const loopback = isLoopbackLink(pairing.url);
  const qr = loopback ? '' : await qrCode(pairing.url, options.qr);
  const intro = loopback
    ? `Open the link in a browser on this machine (${lasts}):`
    : qr
      ? `Scan to pair a phone, or open the link (${lasts}):`
      : `Open the link on the device to pair (${lasts}):`;
  return (
    `\n${intro}\n\n${qr}` +
    `  ${visibleText(pairing.url)}\n\n` +
    (loopback ? `${LOOPBACK_LINK_NOTE}\n` : '') +
    `In an installed app, enter the code: ${visibleText(pairing.code)}\n` +
    `Another device later: ${visibleText(advisedCommand('pair', options.dataDir))}\n\n`
  );
}
