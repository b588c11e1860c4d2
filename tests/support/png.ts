/**
 * Decodes the PNGs Chromium's screenshots are (8-bit RGB or RGBA, not interlaced) into RGBA
 * pixels, so a test can look at what was really drawn. Any other kind is refused, saying which.
 */
import { inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour types: bytes per pixel. */
const CHANNELS: Record<number, number> = { 2: 3, 6: 4 };

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row after row. */
  rgba: Uint8Array;
}

export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9] as number, body[10], body[11], body[12]];
      channels = CHANNELS[colour] ?? 0;
      if (depth !== 8 || !channels || interlace !== 0) throw new Error(`a PNG of depth ${depth}, colour type ${colour}, interlace ${interlace}: only 8-bit RGB(A), not interlaced`);
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? (rows[y * stride + x - channels] as number) : 0;
      const up = y > 0 ? (rows[(y - 1) * stride + x] as number) : 0;
      const upLeft = y > 0 && x >= channels ? (rows[(y - 1) * stride + x - channels] as number) : 0;
      rows[y * stride + x] = ((line[x] as number) + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: new Uint8Array(rows) };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, o = 0; i < rows.length; i += 3, o += 4) {
    rgba[o] = rows[i] as number;
    rgba[o + 1] = rows[i + 1] as number;
    rgba[o + 2] = rows[i + 2] as number;
    rgba[o + 3] = 255;
  }
  return { width, height, rgba };
}

/** The PNG filters (None, Sub, Up, Average, Paeth): what each byte was stored as a difference from. */
function predict(filter: number | undefined, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    default:
      throw new Error(`a PNG row with filter ${filter}`);
  }
}

/**
 * How many pixels inside a box (in the image's pixels) differ from `background` by more than
 * `tolerance` in any channel: the ink of what was drawn there.
 */
export function inkIn(image: Pixels, box: { x: number; y: number; width: number; height: number }, background: [number, number, number], tolerance = 40): number {
  let ink = 0;
  const x1 = Math.min(image.width, Math.round(box.x + box.width));
  const y1 = Math.min(image.height, Math.round(box.y + box.height));
  for (let y = Math.max(0, Math.round(box.y)); y < y1; y++) {
    for (let x = Math.max(0, Math.round(box.x)); x < x1; x++) {
      const i = (y * image.width + x) * 4;
      if (background.some((c, k) => Math.abs((image.rgba[i + k] as number) - c) > tolerance)) ink += 1;
    }
  }
  return ink;
}
