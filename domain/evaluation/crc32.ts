/**
 * CRC-32 (IEEE polynomial, as Go's `crc32.ChecksumIEEE` and zlib) over the UTF-8 bytes of strings,
 * encoded on the fly so that hashing allocates nothing. A lone surrogate hashes as U+FFFD, which is
 * what it becomes when Go decodes the request JSON.
 */
const TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}

/** The running state before any byte. */
export const CRC32_START = -1;

/** Feeds the UTF-8 bytes of `text` into a running CRC state. */
export function crc32Update(state: number, text: string): number {
  let crc = state;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      crc = TABLE[(crc ^ code) & 0xff] ^ (crc >>> 8);
      continue;
    }
    if (code < 0x800) {
      crc = TABLE[(crc ^ (0xc0 | (code >> 6))) & 0xff] ^ (crc >>> 8);
      crc = TABLE[(crc ^ (0x80 | (code & 0x3f))) & 0xff] ^ (crc >>> 8);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        crc = TABLE[(crc ^ (0xf0 | (point >> 18))) & 0xff] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (0x80 | ((point >> 12) & 0x3f))) & 0xff] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (0x80 | ((point >> 6) & 0x3f))) & 0xff] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (0x80 | (point & 0x3f))) & 0xff] ^ (crc >>> 8);
        continue;
      }
      code = 0xfffd;
    }
    crc = TABLE[(crc ^ (0xe0 | (code >> 12))) & 0xff] ^ (crc >>> 8);
    crc = TABLE[(crc ^ (0x80 | ((code >> 6) & 0x3f))) & 0xff] ^ (crc >>> 8);
    crc = TABLE[(crc ^ (0x80 | (code & 0x3f))) & 0xff] ^ (crc >>> 8);
  }
  return crc;
}

/** The checksum (unsigned) of a running state. */
export function crc32Final(state: number): number {
  return (state ^ -1) >>> 0;
}

export function crc32(text: string): number {
  return crc32Final(crc32Update(CRC32_START, text));
}
