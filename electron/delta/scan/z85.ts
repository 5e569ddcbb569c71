// Z85 (ZeroMQ RFC 32), the text encoding Delta uses for deletion vector UUIDs and inline deletion vectors. Delta pads
// the input to a multiple of 4 bytes with zeros; the reader trims with the known byte length.
import { DeltaportError } from '../../../shared/errors.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes, zero-padding them to a multiple of 4 (so 4n bytes become 5n characters). */
export function z85Encode(bytes: Uint8Array): string {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let out = '';
  for (let i = 0; i < padded.length; i += 4) {
    let word = view.getUint32(i);
    const chunk = new Array<string>(5);
    for (let j = 4; j >= 0; j--) {
      chunk[j] = ALPHABET[word % 85];
      word = Math.floor(word / 85);
    }
    out += chunk.join('');
  }
  return out;
}

/** Decodes Z85 text (length a multiple of 5) into 4 bytes per 5 characters. */
export function z85Decode(text: string): Uint8Array {
  if (text.length % 5 !== 0) {
    throw new DeltaportError('CORRUPT_LOG', `invalid Z85 text: length ${text.length} is not a multiple of 5`);
  }
  const out = new Uint8Array((text.length / 5) * 4);
  const view = new DataView(out.buffer);
  for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
    let word = 0;
    for (let j = 0; j < 5; j++) {
      const code = text.charCodeAt(i + j);
      const digit = code < 128 ? DIGIT[code] : -1;
      if (digit < 0) throw new DeltaportError('CORRUPT_LOG', `invalid Z85 character '${text[i + j]}'`);
      word = word * 85 + digit;
    }
    if (word > 0xffffffff) throw new DeltaportError('CORRUPT_LOG', `invalid Z85 group '${text.slice(i, i + 5)}'`);
    view.setUint32(o, word);
  }
  return out;
}
