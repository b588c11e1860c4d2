// TextEncoder and TextDecoder exist in every runtime this contract runs in (Node and
// browsers), but neither the ES lib nor an empty `types` list declares them. Declaring the
// small part we use keeps protocol/ free of Node and DOM typings.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
