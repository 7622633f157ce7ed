/** Bytes as a Buffer without a copy: the Buffer itself, or a Buffer view of the same memory. */
export function asBuffer(bytes: Uint8Array): Buffer {
	return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
